import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The long-chat bench page (scripts/bench-chat.mjs builds it into a temporary directory). */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: { chunkSizeWarningLimit: 4096 },
});
