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

/**
 * The document parsing worker's module (workers/documentPool.ts): TypeScript in the source tree
 * (run with tsx), `workers/documentWorker.js` in the build (scripts/build-server.mjs bundles it).
 */
export const DOCUMENT_WORKER = new URL(`workers/documentWorker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, serverDir);
