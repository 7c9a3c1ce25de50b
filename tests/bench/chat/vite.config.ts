import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { cssBreakpoints } from '../../../scripts/cssBreakpoints.ts';

/** The long-chat bench page (scripts/bench-chat.mjs builds it into a temporary directory). */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  // The app's stylesheets name Mantine's breakpoints in media queries, as in the app's builds.
  css: { postcss: { plugins: [cssBreakpoints()] } },
  logLevel: 'warn',
  build: { chunkSizeWarningLimit: 4096 },
});
