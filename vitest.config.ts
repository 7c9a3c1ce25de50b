import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { globSync, readFileSync } from 'node:fs';

const WEB_TESTS = 'src/renderer/**/*.test.{ts,tsx}';
const NODE_TESTS = ['src/{shared,server,main,preload}/**/*.test.ts', 'scripts/**/*.test.ts'];
/**
 * Tests that replace a module or a global (vi.mock, vi.stubGlobal…) need modules of their own: a
 * module another file imported first would keep the real one.
 */
const replacingModules = (patterns: string | string[]) =>
  globSync(patterns).filter((file) => /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/.test(readFileSync(file, 'utf8')));
const webTestsReplacingModules = replacingModules(WEB_TESTS);
const nodeTestsReplacingModules = replacingModules(NODE_TESTS);

const webTest = {
  environment: 'jsdom',
  setupFiles: ['src/renderer/src/test/setup.ts'],
  // jsdom + Mantine + user-event are slow on a loaded 2-core machine: the default 5 s is too tight.
  testTimeout: 20_000,
};

const nodeTest = { environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 };

/**
 * Six projects: `web` and `web-isolated` (renderer, in jsdom), `node` and `node-isolated` (server,
 * main, preload, shared rules), `integration` (against the real server) and `keychain` (needs a Secret Service; the test
 * script runs it inside dbus-run-session with gnome-keyring).
 */
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          ...webTest,
          name: 'web',
          include: [WEB_TESTS],
          exclude: webTestsReplacingModules,
          // A file shares its worker's jsdom and modules with the files before it: building both
          // anew for each file was two thirds of the component tests' CPU. setup.ts puts back
          // what a file may leave behind (language, stored session, timers, the DOM).
          isolate: false,
        },
      },
      {
        plugins: [react()],
        test: { ...webTest, name: 'web-isolated', include: webTestsReplacingModules },
      },
      {
        test: {
          ...nodeTest,
          name: 'node',
          include: NODE_TESTS,
          exclude: nodeTestsReplacingModules,
          // As in `integration`: importing the server's modules anew for every file was a third of these tests' CPU.
          isolate: false,
        },
      },
      {
        test: { ...nodeTest, name: 'node-isolated', include: nodeTestsReplacingModules },
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
