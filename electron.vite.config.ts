import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { cssBreakpoints } from './scripts/cssBreakpoints.ts';

/**
 * Desktop build: main (ESM; its libraries bundled in, only Electron and the native keytar left
 * outside, so the installer ships no other node_modules: electron-builder.yml), preload (one
 * CommonJS file: a sandboxed preload cannot load ES modules or node_modules, so it bundles
 * everything it uses) and the renderer (the same React app as the web build, from src/renderer).
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: { exclude: ['zod', 'eventsource-parser'] },
      rolldownOptions: { input: { index: resolve(import.meta.dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    // Main serves the renderer at the root of app://bundle/ with every route falling back to
    // index.html, so assets are named from the root. electron-vite sets './' (for file://) in a
    // production build, after this config is read: a page opened at /dashboard/chat then asked for
    // /dashboard/assets/… and stayed blank (found by tests/desktop). A plugin's config hook comes later.
    plugins: [{ name: 'renderer-at-app-root', config: () => ({ base: '/' }) }, react()],
    css: { postcss: { plugins: [cssBreakpoints()] } },
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      rolldownOptions: { input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') } },
    },
  },
});
