import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Four projects: `web` (renderer and shared, in jsdom), `node` (server, main, preload, shared
 * rules), `integration` (against the real server) and `keychain` (needs a Secret Service; the test
 * script runs it inside dbus-run-session with gnome-keyring).
 */
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['src/renderer/src/test/setup.ts'],
          // jsdom + Mantine + user-event are slow on a loaded 2-core machine: the default 5 s is too tight.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/{shared,server,main,preload}/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          // Each file starts its own server on its own database and closes it, so the files can
          // share a worker's modules: importing the server anew for every file cost about two
          // seconds of CPU each, a quarter of the integration passes.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'keychain',
          environment: 'node',
          include: ['tests/keychain/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
