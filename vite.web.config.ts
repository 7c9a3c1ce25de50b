import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { FIRST_SCREEN_NAMESPACES } from './src/renderer/src/i18n/firstScreen.ts';
import { cssBreakpoints } from './scripts/cssBreakpoints.ts';

/** `locale-<lng>` for a locale file, except the first screen's English ones (entry chunk). */
function localeChunk(id: string): string | null {
  const match = /[\\/]locales[\\/]([a-z]{2})[\\/]([^\\/]+)\.json$/.exec(id);
  if (!match) return null;
  const [, language, namespace] = match;
  return language === 'en' && FIRST_SCREEN_NAMESPACES.includes(namespace!) ? null : `locale-${language}`;
}

/** The renderer as a plain web app, served by the API server from dist-web/. */
export default defineConfig({
  root: 'src/renderer',
  plugins: [react()],
  css: { postcss: { plugins: [cssBreakpoints()] } },
  build: {
    outDir: '../../dist-web',
    emptyOutDir: true,
    // bench:bundle reads it to tell what each route loads.
    manifest: true,
    // Fonts stay files even when small (KaTeX's): the web CSP's font-src is 'self', without data:.
    // Mermaid's diagram parser (630 kB) and ELK layout (1.5 MB, never loaded: layout is locked to
    // dagre, features/chat/mermaidRender.ts) are single modules loaded on demand; no chunk of ours
    // comes near this.
    chunkSizeWarningLimit: 1600,
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    rolldownOptions: {
      output: {
        codeSplitting: {
          // One chunk per language instead of one per namespace file: one request when it is needed.
          // The first screen's English strings stay in the entry chunk (i18n/firstScreen.ts).
          groups: [
            { debugName: 'locale', name: localeChunk },
            // The announcement editor's libraries (loaded with its dialog): ProseMirror apart from
            // tiptap and the markdown parser, so no chunk passes Vite's 500 kB warning.
            { name: 'editor-prosemirror', test: /[\\/]node_modules[\\/](prosemirror-[^\\/]+|@tiptap[\\/]pm|orderedmap|rope-sequence|w3c-keyname)[\\/]/ },
          ],
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
