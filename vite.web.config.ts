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
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
    },
  },
});
