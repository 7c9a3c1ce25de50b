import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The stream bench page (scripts/bench-stream.mjs builds it into a temporary directory). */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: { chunkSizeWarningLimit: 4096 },
});
