#!/usr/bin/env node
// `npm test`: everything CI runs — the desktop and web builds, then the Playwright end-to-end
// tests in two shards, the server integration tests on PostgreSQL (when TEST_DATABASE_URL is set),
// lint (boundaries) and type checks side by side, then unit, component and server integration
// tests on PGlite and keychain tests inside a D-Bus session with gnome-keyring. Ends with one "N passed, N failed"
// line over all test cases.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const reportDir = mkdtempSync(join(tmpdir(), 'test-reports-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
/** Each failed test with the first line of its error, repeated at the end so CI's last lines name it. */
const failedTests = [];
const firstLine = (message = '') =>
  message
    // Without the reporters' colour codes.
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 300) ?? '';

const stepTimes = [];

function run(title, command, args, env = {}) {
  console.log(`\n==> ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  stepTimes.push(`${Math.round((Date.now() - started) / 1000)} s  ${title}`);
  const ok = result.status === 0;
  if (!ok) failedSteps.push(title);
  return ok;
}

/**
 * A build, which must also be quiet: a newcomer's first `npm start` prints no warning (Vite's
 * "(!)" notes, PostCSS's and Rollup's warnings). npm's own notes about the machine's config are not the build's.
 */
function build(title, script) {
  console.log(`\n==> ${title}`);
  const started = Date.now();
  const result = spawnSync('npm', ['run', '--silent', script], { encoding: 'utf8', env: process.env });
  const output = `${result.stdout}${result.stderr}`;
  process.stdout.write(output);
  stepTimes.push(`${Math.round((Date.now() - started) / 1000)} s  ${title}`);
  const warnings = output.split('\n').filter((line) => /^\s*\(!\)|\bwarn(ing)?\b/i.test(line) && !/^npm warn/i.test(line));
  if (warnings.length) console.log(`\n${title} printed warnings:\n${warnings.join('\n')}`);
  if (result.status !== 0 || warnings.length) failedSteps.push(title);
  // A warning fails the step, but what was built is still tested.
  return result.status === 0;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests ?? 0;
  totals.failed += report.numFailedTests ?? 0;
  totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) failedTests.push(`${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file that fails before any test runs (an import error, a hook) has no failed test of its own.
    if (file.status === 'failed' && !failed.length) failedTests.push(`${file.name.replace(`${process.cwd()}/`, '')}: ${firstLine(file.message)}`);
  }
}

const workers = `--maxWorkers=${availableParallelism()}`;
const vitestArgs = (reportName, args) => ['vitest', 'run', ...args, workers, '--reporter=default', '--reporter=json', `--outputFile.json=${join(reportDir, `${reportName}.json`)}`];

function vitest(title, args, reportName, env) {
  const ok = run(title, 'npx', vitestArgs(reportName, args), env);
  countVitest(join(reportDir, `${reportName}.json`));
  return ok;
}


/**
 * Starts a step in the background: its output goes to a file, printed when `finish` is awaited, and
 * its report is counted then (`count`).
 */
function startInBackground(title, command, args, { env = {}, count = () => {} }) {
  const logFile = join(reportDir, `${title.replace(/\W+/g, '-')}.log`);
  const log = openSync(logFile, 'w');
  const started = Date.now();
  console.log(`\n==> ${title}: started beside other steps (its output follows when it ends)`);
  const child = spawn(command, args, { stdio: ['ignore', log, log], env: { ...process.env, ...env } });
  // Timed when it ends, not when its output is printed.
  const done = new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, seconds: Math.round((Date.now() - started) / 1000) })));
  return async () => {
    const { code, seconds } = await done;
    closeSync(log);
    console.log(`\n==> ${title}`);
    console.log(readFileSync(logFile, 'utf8'));
    stepTimes.push(`${seconds} s  ${title} (beside other steps)`);
    if (code !== 0) failedSteps.push(title);
    count();
  };
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const stats = report.stats ?? {};
  totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  totals.failed += stats.unexpected ?? 0;
  totals.skipped += stats.skipped ?? 0;
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failedTests.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
}

/** A port that is free, with the next two free as well (the e2e server's search fake and mail sink). */
async function freePortTriplet() {
  const listen = (port) =>
    new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => {
        const { port: taken } = server.address();
        server.close(() => resolve(taken));
      });
    });
  for (;;) {
    const base = await listen(0);
    if (base && base < 65_000 && (await listen(base + 1)) && (await listen(base + 2))) return base;
  }
}

/**
 * The end-to-end tests spend most of their time waiting for the page, so they run in the
 * background beside lint, the type checks and the test passes, which keep both cores busy; the
 * builds they need come first. They run as two shards at once, each with a server, a database,
 * ports and an output folder of its own (Playwright empties its output folder as it starts): one
 * after the other they were the longest step by far.
 */
const E2E_SHARDS = 2;
const endToEndFinishes = [];
const desktopBuilt = build('desktop build (electron-vite)', 'build:desktop');
if (build('web build (vite)', 'build:web') && desktopBuilt) {
  for (let shard = 1; shard <= E2E_SHARDS; shard++) {
    const outputFile = join(reportDir, `e2e-${shard}.json`);
    const title = `end-to-end tests, part ${shard} of ${E2E_SHARDS} (Playwright, Chromium, real server)`;
    endToEndFinishes.push(
      startInBackground(title, 'npx', ['playwright', 'test', `--shard=${shard}/${E2E_SHARDS}`, `--output=test-results/e2e-part-${shard}`, '--reporter=list,json'], {
        env: { PLAYWRIGHT_JSON_OUTPUT_NAME: outputFile, E2E_PORT: String(await freePortTriplet()) },
        count: () => countPlaywright(outputFile),
      }),
    );
  }
}

// The PostgreSQL pass, lint and the type checks run beside the end-to-end shards and each other:
// one after the other they left a core idle most of the time, since the server tests and the
// browser spend much of theirs waiting for each other.
const backgroundFinishes = [];
if (process.env.TEST_DATABASE_URL) {
  backgroundFinishes.push(
    startInBackground('server integration tests on PostgreSQL', 'npx', vitestArgs('postgres', ['--project', 'integration']), {
      count: () => countVitest(join(reportDir, 'postgres.json')),
    }),
  );
} else {
  console.log('\n==> server integration tests on PostgreSQL: skipped (set TEST_DATABASE_URL, as .ci/run does)');
}
const checks = [
  startInBackground('lint (ESLint with the DESIGN §4 boundary rules)', 'npx', ['eslint', '.', '--max-warnings=0'], {}),
  startInBackground('type check (node: shared, server, main, preload, tests)', 'npx', ['tsc', '-p', 'tsconfig.node.json'], {}),
  startInBackground('type check (web: renderer, shared)', 'npx', ['tsc', '-p', 'tsconfig.web.json'], {}),
];
for (const finish of checks) await finish();

vitest('unit, component and server integration tests on PGlite', ['--project', 'web', '--project', 'web-isolated', '--project', 'node', '--project', 'integration'], 'pglite', { TEST_DATABASE_URL: '' });

const hasKeyring = spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon'], { stdio: 'ignore' }).status === 0;
if (hasKeyring) {
  const outputFile = join(reportDir, 'keychain.json');
  run('keychain tests (gnome-keyring in a private D-Bus session)', 'dbus-run-session', [
    '--',
    'sh',
    '-c',
    `echo | gnome-keyring-daemon --unlock --components=secrets >/dev/null && npx vitest run --project keychain --reporter=default --reporter=json --outputFile.json=${outputFile}`,
  ]);
  countVitest(outputFile);
} else if (process.env.CI) {
  console.log('\n==> keychain tests: dbus-run-session or gnome-keyring-daemon missing');
  failedSteps.push('keychain tests');
} else {
  console.log('\n==> keychain tests: skipped (install gnome-keyring and dbus to run them)');
}

for (const finish of [...backgroundFinishes, ...endToEndFinishes]) await finish();

// Step durations, so a slow step shows in the CI log (the whole run must stay well under 20 minutes).
console.log(`\n${stepTimes.join('\n')}`);
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join('; ')}`);
if (failedTests.length) console.log(`Failed tests:\n${failedTests.map((test) => `  ${test}`).join('\n')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
