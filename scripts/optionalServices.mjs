// What some tests need beyond Node and npm, and a newcomer's machine may lack: how each is found,
// which tests its absence skips, and the one command that provides it. The tests that need one
// ask `needService`, which notes a missing one in TEST_SKIPS_FILE; `npm test` (scripts/test.mjs)
// prints one line per missing service at the end, and under CI fails instead
// (docs/decisions/0072-newcomer-test-run.md).
import { spawnSync } from 'node:child_process';
import { accessSync, appendFileSync, constants, existsSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';

/**
 * An executable on PATH, or undefined. With `sbin`, also the `sbin` folder beside each `bin`
 * folder on PATH: Debian puts server programs (slapd) in /usr/sbin, which a user's PATH lacks.
 */
export function findExecutable(name, { sbin = false } = {}) {
  const folders = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const searched = sbin ? folders.flatMap((folder) => (basename(folder) === 'bin' ? [folder, join(dirname(folder), 'sbin')] : [folder])) : folders;
  const names = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD').split(';').map((extension) => `${name}${extension.toLowerCase()}`) : [name];
  for (const folder of searched) {
    for (const file of names.map((fileName) => join(folder, fileName))) {
      try {
        accessSync(file, constants.X_OK);
        if (statSync(file).isFile()) return file;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

/** A Chromium of the system, preferably its headless shell (lighter per test: decision 0070). */
export const systemChromium = () => ['chromium-headless-shell', 'chromium', 'chromium-browser'].map((name) => findExecutable(name)).find(Boolean);

/** OpenLDAP's server and loader, with Debian's schema files that tests/fixtures/slapd.ts includes. */
export const slapdPrograms = () => {
  const slapd = findExecutable('slapd', { sbin: true });
  const slapadd = findExecutable('slapadd', { sbin: true });
  return slapd && slapadd && existsSync('/etc/ldap/schema/inetorgperson.schema') ? { slapd, slapadd } : undefined;
};

const onPlatform = (commands) => commands[process.platform] ?? commands.other;

/**
 * Why Korean, Japanese or Chinese text would draw as boxes here (undefined: it would not). The app
 * ships no font of its own; macOS and Windows have CJK system fonts, Linux has them when
 * fontconfig names one for each language.
 */
function cjkFontsMissing() {
  if (process.platform !== 'linux') return undefined;
  if (!findExecutable('fc-list')) return 'fc-list (fontconfig) is not on PATH';
  const lacking = ['ko', 'ja', 'zh-cn'].filter((lang) => !spawnSync('fc-list', [`:lang=${lang}`, 'family'], { encoding: 'utf8' }).stdout?.trim());
  return lacking.length ? `no system font for ${lacking.join(', ')}` : undefined;
}

/**
 * Each optional service: what its absence skips, why it is missing (undefined when present; the
 * browser is probed by scripts/test.mjs, which can download Playwright's) and what provides it.
 */
export const optionalServices = {
  browser: {
    skips: 'end-to-end tests (Playwright in Chromium)',
    enable: 'npx playwright install chromium',
  },
  postgres: {
    skips: 'server integration tests on PostgreSQL (the second pass), and end-to-end part 1 on PostgreSQL (it runs on PGlite instead)',
    missing: () => (process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is not set'),
    enable: onPlatform({
      win32: "$env:TEST_DATABASE_URL='postgres://USER:PASSWORD@127.0.0.1:5432/postgres'; npm test",
      other: 'TEST_DATABASE_URL=postgres://USER:PASSWORD@127.0.0.1:5432/postgres npm test',
    }),
  },
  keychain: {
    skips: 'keychain tests (keytar on the Secret Service) and the desktop app tests (tests/desktop)',
    // macOS and Windows: keytar uses the user's own keychain, always there.
    missing: () =>
      process.platform !== 'linux' || (findExecutable('dbus-run-session') && findExecutable('gnome-keyring-daemon'))
        ? undefined
        : 'dbus-run-session or gnome-keyring-daemon is not on PATH',
    enable: 'sudo apt-get install gnome-keyring dbus',
  },
  redis: {
    skips: 'Redis rate-limit tests (REDIS_URL)',
    missing: () => (findExecutable('redis-server') ? undefined : 'redis-server is not on PATH'),
    enable: onPlatform({ darwin: 'brew install redis', win32: 'put a redis-server.exe on PATH', other: 'sudo apt-get install redis-server' }),
  },
  cjkFont: {
    skips: 'the check that Korean, Japanese and Chinese text draws real glyphs (tests/e2e/language.spec.ts)',
    missing: cjkFontsMissing,
    enable: 'sudo apt-get install fonts-noto-cjk',
  },
  slapd: {
    skips: 'directory (LDAP) sign-in tests',
    missing: () => (slapdPrograms() ? undefined : "no slapd and slapadd with Debian's OpenLDAP layout (/etc/ldap/schema)"),
    enable: onPlatform({ linux: 'sudo apt-get install slapd ldap-utils', other: 'none here: the directory tests need Debian or Ubuntu' }),
  },
};

/**
 * Notes a skip for the summary of `npm test`, which reads TEST_SKIPS_FILE (one JSON line each);
 * `enable` when the usual command would not help.
 */
export function recordSkip(service, why, enable) {
  if (process.env.TEST_SKIPS_FILE) appendFileSync(process.env.TEST_SKIPS_FILE, `${JSON.stringify({ service, why, enable })}\n`);
}

/** Whether the machine has the service; when not, the caller's tests skip and the summary says so. */
export function needService(service) {
  const why = optionalServices[service].missing();
  if (why) recordSkip(service, why);
  return !why;
}
