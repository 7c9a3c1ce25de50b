import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The renderer as a plain web app, served by the API server from dist-web/. */
export default defineConfig({
  root: 'src/renderer',
  plugins: [react()],
  build: {
    outDir: '../../dist-web',
    emptyOutDir: true,
    // bench:bundle reads it to tell what each route loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // One chunk per language instead of one per namespace file: one request when it is needed.
          groups: [{ debugName: 'locale', name: (id: string) => /[\\/]locales[\\/]([a-z]{2})[\\/]/.exec(id)?.[1]?.replace(/^/, 'locale-') ?? null }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
    },
  },
});
