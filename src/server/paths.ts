import { fileURLToPath } from 'node:url';

/**
 * Files the server reads at run time, located from this module: in the source tree it sits in
 * src/server/, in the build it is bundled into dist-server/index.js, and the build copies the same
 * layout (db/migrations, assets) beside it. Every module resolving its own relative path would
 * break once bundled into one file.
 */
const serverDir = new URL('./', import.meta.url);

export const MIGRATIONS_DIR = fileURLToPath(new URL('db/migrations', serverDir));
export const ASSETS_DIR = fileURLToPath(new URL('assets/', serverDir));
