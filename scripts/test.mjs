#!/usr/bin/env node
// `npm test`: everything CI runs — the desktop and web builds, then the Playwright end-to-end
// tests in two shards (the first on PostgreSQL, the second on PGlite), the server integration
// tests on PostgreSQL (both need TEST_DATABASE_URL; without it everything runs on PGlite),
// lint (boundaries), the format check and type checks side by side, then unit, component and
// server integration tests on PGlite, then the keychain tests and the desktop app's end-to-end
// tests (both on Linux inside a D-Bus session with gnome-keyring). What the machine lacks
// (a browser, PostgreSQL, gnome-keyring, Redis, slapd: scripts/optionalServices.mjs) is skipped
// with one line each at the end, saying how to add it; under CI it fails the run instead. Ends
// with one "N passed, N failed, N skipped" line over all test cases. Needs only Node and npm, on
// Linux, macOS and Windows: every command is this Node running a package's own script, no shell.
//
// `npm test -- <path>… [-t <pattern>]` runs only the test files under those paths (an e2e spec, an
// integration file, a folder…) through the same passes (PGlite, PostgreSQL, keychain, end-to-end),
// probes and summary, and with `-t` only the tests whose name matches; the whole-tree steps
// (desktop build, lint, format and type checks) are then left out.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePortTriplet } from './freePorts.mjs';
import { optionalServices, recordSkip, systemChromium } from './optionalServices.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Named paths are the caller's (npm runs scripts from the root, and says where it was started).
const callerFolder = process.env.INIT_CWD ?? process.cwd();
process.chdir(root);
/** Under CI nothing may be skipped: .ci/run installs every service, and a missing one fails the run. */
const underCI = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI);

const reportDir = mkdtempSync(join(tmpdir(), 'test-reports-'));
// Every step and test process inherits it: the tests that skip for a missing service note it here.
process.env.TEST_SKIPS_FILE = join(reportDir, 'skips.jsonl');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
/** Each failed test with the first line of its error, repeated at the end so CI's last lines name it. */
const failedTests = [];
const firstLine = (message = '') => {
  // Without the reporters' colour codes.
  const lines = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const first = lines.find((line) => line.trim())?.trim() ?? '';
  // An assertion's expected and received values say which way it failed, where CI's log is all there is.
  const values = lines.map((line) => line.trim()).filter((line) => /^(Locator|Expected|Received)\b/.test(line));
  return [first, ...values].join(' · ').slice(0, 600);
};

const stepTimes = [];

/** The command-line selection: test paths relative to the repository, and a test name pattern. */
function parseSelection(args) {
  const paths = [];
  let namePattern;
  for (let i = 0; i < args.length; i++) {
    if (['-t', '--testNamePattern'].includes(args[i]) && i + 1 < args.length) namePattern = args[++i];
    else if (args[i].startsWith('-')) {
      console.error(`npm test: unknown option ${args[i]} (usage: npm test -- [path…] [-t pattern])`);
      process.exit(2);
    } else paths.push(relative(root, resolve(callerFolder, args[i])).split(sep).join('/'));
  }
  return { paths, namePattern };
}
const selection = parseSelection(process.argv.slice(2));
const everything = selection.paths.length === 0;
const suiteOf = (path) =>
  path.startsWith('tests/e2e')
    ? 'e2e'
    : path.startsWith('tests/desktop')
      ? 'desktop'
      : path.startsWith('tests/keychain')
        ? 'keychain'
        : path.startsWith('tests/integration')
          ? 'integration'
          : 'unit';
/** The selected paths of these suites ([] for everything), and whether they run at all. */
const selectedIn = (...suites) => selection.paths.filter((path) => suites.includes(suiteOf(path)));
const runs = (...suites) => everything || selectedIn(...suites).length > 0;
const nameFilter = (option) => (selection.namePattern === undefined ? [] : [option, selection.namePattern]);

/** A package's command as [this Node, its script]: no shell and no .cmd shim, so the same on Windows. */
function tool(pkg, binName = pkg) {
  const manifest = join(root, 'node_modules', pkg, 'package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return [process.execPath, join(dirname(manifest), typeof bin === 'string' ? bin : bin[binName])];
}
const [vitestCommand, vitestScript] = tool('vitest');
const [playwrightCommand, playwrightScript] = tool('@playwright/test', 'playwright');
/** npm as `npm test` started it (its script run by Node); started directly, the npm on PATH. */
const npm = (args) =>
  process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath, ...args], {}] : ['npm', args, { shell: process.platform === 'win32' }];

/**
 * Runs a step to its end, its output on ours. Awaited, not synchronous: the steps running beside
 * it are timed when they end, which a blocked event loop would only see after this one.
 */
async function run(title, command, args, env = {}) {
  console.log(`\n==> ${title}`);
  const started = Date.now();
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const code = await new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  stepTimes.push(`${Math.round((Date.now() - started) / 1000)} s  ${title}`);
  const ok = code === 0;
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
  const [command, args, options] = npm(['run', '--silent', script]);
  const result = spawnSync(command, args, { ...options, encoding: 'utf8', env: process.env });
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
    for (const test of failed) failedTests.push(`${relative(root, file.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file that fails before any test runs (an import error, a hook) has no failed test of its own.
    if (file.status === 'failed' && !failed.length) failedTests.push(`${relative(root, file.name)}: ${firstLine(file.message)}`);
  }
}

const workers = `--maxWorkers=${availableParallelism()}`;
const vitestArgs = (reportName, args) => [
  vitestScript,
  'run',
  ...args,
  ...nameFilter('-t'),
  workers,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reportDir, `${reportName}.json`)}`,
];

async function vitest(title, args, reportName, env) {
  const ok = await run(title, vitestCommand, vitestArgs(reportName, args), env);
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
        const error = test.results?.at(-1)?.error;
        const at = error?.location ? ` (at line ${error.location.line})` : '';
        failedTests.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}${at}: ${firstLine(error?.message)}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
}

/** Notes a pass this machine cannot run: its line now, and one at the end (under CI, a failure). */
function skipPass(title, service, why, enable) {
  console.log(`\n==> ${title}: ${underCI ? 'cannot run' : 'skipped'}, ${why}`);
  recordSkip(service, why, enable);
}

const PLAYWRIGHT_DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** Why Playwright's Chromium does not start here (undefined: it does). */
async function playwrightChromiumProblem() {
  const { chromium } = await import('@playwright/test');
  try {
    await (await chromium.launch({ args: ['--no-sandbox'] })).close();
    return undefined;
  } catch (error) {
    return firstLine(error.message);
  }
}

/**
 * Whether the end-to-end tests have a browser: CHROMIUM_PATH, a Chromium on PATH, or Playwright's
 * own, downloaded now when it is missing (not under CI, where .ci/run installs Debian's). The
 * download gets a time limit, so a machine that cannot reach it skips rather than waits.
 */
async function prepareBrowser(title) {
  if (process.env.CHROMIUM_PATH || systemChromium()) return true;
  let problem = await playwrightChromiumProblem();
  const notDownloaded = (message) => message?.includes("Executable doesn't exist");
  if (notDownloaded(problem) && !underCI) {
    console.log("\n==> Chromium for the end-to-end tests: none on PATH and Playwright's is not downloaded; downloading it (npx playwright install chromium)");
    const started = Date.now();
    const install = spawnSync(playwrightCommand, [playwrightScript, 'install', 'chromium'], { stdio: 'inherit', timeout: PLAYWRIGHT_DOWNLOAD_TIMEOUT_MS });
    stepTimes.push(`${Math.round((Date.now() - started) / 1000)} s  Chromium download (Playwright)`);
    if (install.status !== 0) {
      const how = install.error ? `stopped after ${PLAYWRIGHT_DOWNLOAD_TIMEOUT_MS / 60_000} minutes` : `failed (exit code ${install.status})`;
      skipPass(title, 'browser', `no Chromium on PATH, and the download of Playwright's ${how}`);
      return false;
    }
    problem = await playwrightChromiumProblem();
  }
  if (!problem) return true;
  if (notDownloaded(problem)) skipPass(title, 'browser', "no Chromium on PATH and Playwright's is not downloaded (under CI nothing is downloaded)");
  else skipPass(title, 'browser', `Playwright's Chromium does not start: ${problem}`, 'sudo npx playwright install-deps chromium');
  return false;
}

/**
 * The end-to-end tests spend most of their time waiting for the page, so they run in the
 * background beside lint, the type checks and the test passes, which keep both cores busy; the
 * builds they need come first. They run as two shards at once, each with a server, a database,
 * ports and an output folder of its own (Playwright empties its output folder as it starts): one
 * after the other they were the longest step by far. Named specs run as one part.
 */
const endToEndTitle = 'end-to-end tests (Playwright, Chromium, real server)';
const endToEndRuns = runs('e2e') && (await prepareBrowser(endToEndTitle));
const desktopTitle = 'desktop app tests (Playwright, the built main under an Electron adapter, real server and keychain)';
const desktopRuns = runs('desktop') && (await prepareBrowser(desktopTitle));
const E2E_SHARDS = everything ? 2 : 1;
const endToEndFinishes = [];
const desktopBuilt = everything || desktopRuns ? build('desktop build (electron-vite)', 'build:desktop') : true;
// The packed app the desktop bundle test reads, packed while the machine is still quiet
// (scripts/packDesktop.mjs); amid the other steps electron-builder took that test 30–60 s.
if (everything && desktopBuilt) {
  const packDir = join(reportDir, 'desktop-pack');
  if (await run('desktop pack (electron-builder --dir, a stand-in Electron)', process.execPath, ['scripts/packDesktop.mjs', packDir]))
    process.env.DESKTOP_PACK_DIR = join(packDir, 'release/linux-unpacked/resources');
}
const webBuilt = everything || endToEndRuns ? build('web build (vite)', 'build:web') : true;
// Built once here: each part's server would otherwise rebuild dist-server (emptied first) while the
// other part's server starts from it.
const serverBuilt = endToEndRuns || desktopRuns ? build('server build (esbuild)', 'build:server') : true;
const endToEndDatabases = [];
/**
 * With PostgreSQL at hand, part 1 runs on a fresh database of its own there, part 2 on PGlite: the
 * browser flows run on both databases, and native PostgreSQL takes the server a fraction of the CPU
 * the WebAssembly one does. The server migrates it as it starts; it is dropped at the end.
 */
async function endToEndDatabase(shard) {
  if (shard !== 1 || E2E_SHARDS === 1 || optionalServices.postgres.missing()) return undefined;
  const { default: postgres } = await import('postgres');
  const name = `e2e_${Date.now().toString(36)}_${process.pid}`;
  const admin = postgres(process.env.TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  endToEndDatabases.push({ admin, name });
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
if (endToEndRuns && webBuilt && desktopBuilt && serverBuilt) {
  for (let shard = 1; shard <= E2E_SHARDS; shard++) {
    const databaseUrl = await endToEndDatabase(shard);
    const outputFile = join(reportDir, `e2e-${shard}.json`);
    const shardArgs = E2E_SHARDS > 1 ? [`--shard=${shard}/${E2E_SHARDS}`] : [];
    endToEndFinishes.push(
      startInBackground(
        E2E_SHARDS > 1 ? `${endToEndTitle}, part ${shard} of ${E2E_SHARDS}${databaseUrl ? ', PostgreSQL' : ', PGlite'}` : endToEndTitle,
        playwrightCommand,
        [
          playwrightScript,
          'test',
          '--project=e2e',
          ...selectedIn('e2e'),
          ...shardArgs,
          ...nameFilter('--grep'),
          `--output=test-results/e2e-part-${shard}`,
          '--reporter=list,json',
        ],
        {
          // One part may keep the caller's E2E_PORT (and the two after it); two parts need two sets.
          env: {
            PLAYWRIGHT_JSON_OUTPUT_NAME: outputFile,
            E2E_SERVER_BUILT: '1',
            ...(databaseUrl ? { E2E_DATABASE_URL: databaseUrl } : {}),
            E2E_PORT: E2E_SHARDS === 1 && process.env.E2E_PORT ? process.env.E2E_PORT : String(await freePortTriplet()),
          },
          count: () => countPlaywright(outputFile),
        },
      ),
    );
  }
}

// The PostgreSQL pass, lint and the type checks run beside the end-to-end shards and each other:
// one after the other they left a core idle most of the time, since the server tests and the
// browser spend much of theirs waiting for each other.
const backgroundFinishes = [];
const postgresTitle = 'server integration tests on PostgreSQL';
if (runs('integration')) {
  const postgresMissing = optionalServices.postgres.missing();
  if (postgresMissing) skipPass(postgresTitle, 'postgres', postgresMissing);
  else {
    backgroundFinishes.push(
      startInBackground(postgresTitle, vitestCommand, vitestArgs('postgres', ['--project', 'integration', ...selectedIn('integration')]), {
        count: () => countVitest(join(reportDir, 'postgres.json')),
      }),
    );
  }
}
const checks = [];
if (everything) {
  const [eslint, eslintScript] = tool('eslint');
  const [prettier, prettierScript] = tool('prettier');
  const [tsc, tscScript] = tool('typescript', 'tsc');
  checks.push(
    startInBackground('lint (ESLint with the DESIGN §4 boundary rules)', eslint, [eslintScript, '.', '--max-warnings=0'], {}),
    startInBackground('format check (Prettier; `npm run format` fixes it)', prettier, [prettierScript, '--check', '.', '--log-level', 'warn'], {}),
    startInBackground('type check (node: shared, server, main, preload, tests)', tsc, [tscScript, '-p', 'tsconfig.node.json'], {}),
    startInBackground('type check (web: renderer, shared)', tsc, [tscScript, '-p', 'tsconfig.web.json'], {}),
  );
} else {
  console.log(`\n==> ${desktopRuns ? '' : 'desktop build, '}lint, format and type checks: not run (named tests only)`);
}
for (const finish of checks) await finish();

/**
 * A step that needs the OS keychain, as [title, command, args]: on Linux the Secret Service of an
 * unlocked gnome-keyring in a D-Bus session of its own (sh passes the command on as it is, "$@",
 * unquoted by nothing); on macOS and Windows keytar uses the user's own keychain.
 */
function withKeychain(title, command, args) {
  if (process.platform !== 'linux') return [`${title} (the ${process.platform === 'darwin' ? 'macOS' : 'Windows'} keychain)`, command, args];
  return [
    `${title} (gnome-keyring in a private D-Bus session)`,
    'dbus-run-session',
    ['--', 'sh', '-c', 'echo | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"', 'keychain', command, ...args],
  ];
}
const keychainMissing = optionalServices.keychain.missing();

if (runs('unit', 'integration')) {
  await vitest(
    'unit, component and server integration tests on PGlite',
    [
      '--project',
      'web',
      '--project',
      'web-isolated',
      '--project',
      'node',
      '--project',
      'node-isolated',
      '--project',
      'integration',
      ...selectedIn('unit', 'integration'),
    ],
    'pglite',
    { TEST_DATABASE_URL: '' },
  );
}

if (runs('keychain')) {
  if (keychainMissing) skipPass('keychain tests', 'keychain', keychainMissing);
  else {
    await run(...withKeychain('keychain tests', vitestCommand, vitestArgs('keychain', ['--project', 'keychain', ...selectedIn('keychain')])));
    countVitest(join(reportDir, 'keychain.json'));
  }
}

// The desktop app end to end (tests/desktop): the built main bundle in Node under an adapter of
// Electron, the desktop renderer in Chromium, one server of its own, and the keychain, so in a
// keychain session of its own. After the PGlite pass, not beside it: its server and browser there
// made the run's peak load, in which a fault test of the PostgreSQL pass ran out of time.
if (desktopRuns && desktopBuilt && serverBuilt) {
  if (keychainMissing) skipPass(desktopTitle, 'keychain', keychainMissing);
  else {
    const outputFile = join(reportDir, 'desktop.json');
    const [title, command, args] = withKeychain(desktopTitle, playwrightCommand, [
      playwrightScript,
      'test',
      '--project=desktop',
      ...selectedIn('desktop'),
      ...nameFilter('--grep'),
      '--reporter=list,json',
    ]);
    const env = {
      PLAYWRIGHT_JSON_OUTPUT_NAME: outputFile,
      E2E_SERVER_BUILT: '1',
      E2E_PORT: endToEndRuns || !process.env.E2E_PORT ? String(await freePortTriplet()) : process.env.E2E_PORT,
    };
    backgroundFinishes.push(startInBackground(title, command, args, { env, count: () => countPlaywright(outputFile) }));
  }
}

for (const finish of [...backgroundFinishes, ...endToEndFinishes]) await finish();
for (const { admin, name } of endToEndDatabases) {
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
}

/** What was skipped for a missing service, once per service, in the order of optionalServices. */
function skippedServices() {
  const file = process.env.TEST_SKIPS_FILE;
  const notes = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
  return Object.entries(optionalServices).flatMap(([service, { skips, enable }]) => {
    const note = notes.find((entry) => entry.service === service);
    return note ? [{ skips, why: note.why, enable: note.enable ?? enable }] : [];
  });
}

const skipped = skippedServices();
// The reports stay for a look after the run; the packed desktop app (17 MB) does not.
rmSync(join(reportDir, 'desktop-pack'), { recursive: true, force: true });
// CI runs every test: .ci/run installs what they need, so a missing service is a broken machine.
if (underCI) for (const { skips } of skipped) failedSteps.push(`${skips} (missing under CI)`);

// Step durations, so a slow step shows in the CI log (the whole run must stay well under 20 minutes).
console.log(`\n${stepTimes.join('\n')}`);
if (failedSteps.length) console.log(`Failed steps: ${failedSteps.join('; ')}`);
if (failedTests.length) console.log(`Failed tests:\n${failedTests.map((test) => `  ${test}`).join('\n')}`);
for (const { skips, why, enable } of skipped) console.log(underCI ? `Missing under CI: ${skips}: ${why}` : `Skipped ${skips}: ${why}. To run them: ${enable}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
