/**
 * `npm test` on a newcomer's machine that has only Node and npm: no Chromium, PostgreSQL,
 * gnome-keyring, Redis or slapd on PATH, no variables, Playwright's browser folder empty and its
 * download refused (a closed loopback port). The run downloads what it can, skips the rest with
 * one line each saying how to add it, and passes; under CI the same machine fails. A few named
 * tests (`npm test -- <paths> -t <pattern>`) keep it short, through the passes of the whole run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../tests/fixtures/ports';
import { findExecutable, optionalServices, type OptionalService } from './optionalServices.mjs';

const root = resolve(import.meta.dirname, '..');
const folders: string[] = [];
const temporaryFolder = (prefix: string) => {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A PATH with node, npm and npx only (Windows: Node's own folder, which holds just those). */
function bareBinFolder(): string {
  if (process.platform === 'win32') return dirname(process.execPath);
  const folder = temporaryFolder('bare-bin-');
  symlinkSync(process.execPath, join(folder, 'node'));
  for (const name of ['npm', 'npx']) {
    const program = findExecutable(name);
    if (program) symlinkSync(program, join(folder, name));
  }
  return folder;
}

async function bareMachineEnv(): Promise<NodeJS.ProcessEnv> {
  const home = temporaryFolder('bare-home-');
  const kept = Object.fromEntries(['SystemRoot', 'TEMP', 'TMP'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
  return {
    ...kept,
    PATH: bareBinFolder(),
    HOME: home,
    USERPROFILE: home,
    PLAYWRIGHT_BROWSERS_PATH: temporaryFolder('no-browsers-'),
    // Nothing listens there: the download fails at once, here and on a machine with internet.
    PLAYWRIGHT_DOWNLOAD_HOST: `http://127.0.0.1:${await freePort()}`,
  };
}

function npmTest(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'scripts/test.mjs'), ...args], { cwd: root, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => done({ code, output }));
  });
}

const closingLine = (output: string) => output.trimEnd().split('\n').at(-1);

describe('npm test with only Node and npm', () => {
  it('passes, skipping what the machine lacks with one line each: what, why and the command that adds it', { timeout: 60_000 }, async () => {
    const env = await bareMachineEnv();
    const { code, output } = await npmTest(
      [
        'tests/e2e/sso.spec.ts',
        'tests/integration/rate-limits.test.ts',
        'tests/integration/sso.test.ts',
        'tests/keychain',
        // Only the tests that need Redis or slapd: the rest of those files is not what this shows.
        '-t',
        'Redis|slapd',
      ],
      env,
    );

    expect(output).toContain('downloading it (npx playwright install chromium)');
    // macOS and Windows always have their keychain.
    const missing: OptionalService[] = ['browser', 'postgres', ...(process.platform === 'linux' ? (['keychain'] as const) : []), 'redis', 'slapd'];
    const skipLines = output.split('\n').filter((line) => line.startsWith('Skipped '));
    const TO_RUN = '. To run them: ';
    expect(skipLines.map((line) => ({ what: line.split(': ', 1)[0], command: line.slice(line.indexOf(TO_RUN) + TO_RUN.length) }))).toEqual(
      missing.map((service) => ({ what: `Skipped ${optionalServices[service].skips}`, command: optionalServices[service].enable })),
    );
    expect(skipLines[0]).toContain("no Chromium on PATH, and the download of Playwright's failed");
    expect(skipLines[1]).toContain('TEST_DATABASE_URL is not set');
    expect(closingLine(output)).toMatch(/^0 passed, 0 failed, [1-9]\d* skipped$/);
    expect(code).toBe(0);
  });

  it('fails under CI instead, naming what is missing, and downloads nothing', { timeout: 60_000 }, async () => {
    const env = await bareMachineEnv();
    const { code, output } = await npmTest(['tests/e2e/sso.spec.ts'], { ...env, CI: 'true' });

    expect(output).not.toContain('npx playwright install chromium');
    expect(output).toContain(`Missing under CI: ${optionalServices.browser.skips}: no Chromium on PATH`);
    expect(closingLine(output)).toBe('0 passed, 0 failed, 0 skipped');
    expect(code).toBe(1);
  });
});
