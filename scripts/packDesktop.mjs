// Packs the desktop app as its installer would (`electron-builder --dir --linux`) against a stand-in
// Electron, for tests/integration/desktop-bundle.test.ts: electron-builder only copies the Electron
// distribution and flips the fuses of its binary, so a file holding the fuse wire (sentinel,
// version 1, length, one byte per fuse) is enough. Each fuse starts opposite to
// electron-builder.yml, so the packed binary shows that the fuses were flipped.
//
// `npm test` packs once while the machine is still quiet, beside the builds (DESKTOP_PACK_DIR):
// electron-builder needs 3.5 s of CPU, and run by the test amid the other steps it took 30–60 s.
// `node scripts/packDesktop.mjs <dir>` packs into <dir>; the test packs by itself when run alone.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '..');
/** The sentinel electron-builder's fuse flipper looks for in the Electron binary. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** Packs into `workDir` and returns the packed app's resources folder. */
export async function packDesktop(workDir) {
  const fromBuilder = createRequire(join(root, 'node_modules/app-builder-lib/package.json'));
  const { FuseV1Options } = fromBuilder('@electron/fuses');
  const { electronFuses } = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  const fuseNames = Object.keys(FuseV1Options).filter((name) => Number.isNaN(Number(name)));
  const configured = (fuse) => electronFuses[`${fuse.charAt(0).toLowerCase()}${fuse.slice(1)}`];
  const electronDist = join(workDir, 'electron-dist');
  mkdirSync(electronDist, { recursive: true });
  const wire = fuseNames.map((fuse) => (configured(fuse) ? '0' : '1')).join('');
  writeFileSync(
    join(electronDist, 'electron'),
    Buffer.concat([Buffer.from('#!/bin/sh\n'), Buffer.from(FUSE_SENTINEL), Buffer.from([1, wire.length]), Buffer.from(wire)]),
    { mode: 0o755 },
  );
  await promisify(execFile)(
    process.execPath,
    [
      join(root, 'node_modules/electron-builder/cli.js'),
      '--dir',
      '--linux',
      '--config',
      'electron-builder.yml',
      `-c.electronDist=${electronDist}`,
      `-c.directories.output=${join(workDir, 'release')}`,
      // No Electron headers to rebuild keytar against here; the installer build rebuilds it.
      '-c.npmRebuild=false',
    ],
    { cwd: root },
  );
  return join(workDir, 'release/linux-unpacked/resources');
}

if (process.argv[1] === import.meta.filename) {
  const [workDir] = process.argv.slice(2);
  if (!workDir) throw new Error('usage: node scripts/packDesktop.mjs <dir>');
  console.log(await packDesktop(resolve(workDir)));
}
