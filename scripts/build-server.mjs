#!/usr/bin/env node
/**
 * `npm run build:server`: bundles the API server, the admin CLI and the document parsing worker
 * (forked by the server, src/server/paths.ts finds it at workers/documentWorker.js) into plain ES
 * modules that `node` runs without a TypeScript loader, and copies the files they read at run time (SQL
 * migrations, assets) beside them in the layout src/server/paths.ts expects.
 *
 * esbuild: already installed (tsx runs on it), bundles the server in well under a second, and
 * needs no configuration file. Packages from node_modules stay external: `npm install` puts them
 * there anyway, and PGlite's wasm and data files, argon2's native binding and the postgres driver
 * load from their own package directories, which a bundle would break. Except drizzle-orm (plain
 * JavaScript): Node 24 reads its 175 KB package.json again for each of the hundreds of files it
 * loads, a third of a second and some 80 MiB of garbage at every start (docs/BENCHMARKS.md "Memory
 * and start").
 *
 * Usage: node scripts/build-server.mjs [--outdir <dir>]   (default dist-server)
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist-server' } } });
const outdir = values.outdir;

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { index: 'src/server/index.ts', admin: 'src/server/admin.ts', 'workers/documentWorker': 'src/server/workers/documentWorker.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  plugins: [
    {
      name: 'external-packages-but-drizzle',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, ({ path }) => (/^drizzle-orm(\/|$)/.test(path) ? undefined : { path, external: true }));
      },
    },
  ],
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', join(outdir, 'db/migrations'), { recursive: true });
cpSync('src/server/assets', join(outdir, 'assets'), { recursive: true });
