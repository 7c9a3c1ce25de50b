import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BuiltServer, startBuiltServer, stopBuiltServer } from '../fixtures/builtServer';

/**
 * A server of its own for a spec that needs settings the suite's shared server lacks (a fake
 * upstream): the build `npm run server` made for the suite, on a fresh database in a folder of its
 * own, with the sign-in limits of the shared one. `stop` ends it and removes its folder.
 */
export async function startOwnServer(name: string, env: NodeJS.ProcessEnv): Promise<{ server: BuiltServer; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `e2e-${name}-`));
  const server = await startBuiltServer(resolve('dist-server/index.js'), {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    FILES_DIR: join(dataDir, 'files'),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SIGN_IN_RATE_LIMIT: '1000',
    SIGN_IN_EMAIL_RATE_LIMIT: '1000',
    ...env,
  });
  return {
    server,
    stop: async () => {
      await stopBuiltServer(server.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
