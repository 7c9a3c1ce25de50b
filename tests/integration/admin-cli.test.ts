/**
 * The operator's CLI against a real database (a PGlite directory, or PostgreSQL when
 * TEST_DATABASE_URL is set: `npm test` runs the integration suite once each way): what it creates
 * signs in through the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, runAdmin } from '../../src/server/adminCli';
import { buildApp } from '../../src/server/app';
import { testConfig } from '../../src/server/config';
import { type DatabaseHandle, openPglite, openPostgres } from '../../src/server/db/client';
import { migratedPgliteDirectory } from '../fixtures/pgliteDirectory';
import { freshPostgresDatabase } from '../fixtures/testServer';

/** Every CLI run opens (and migrates) the PGlite directory anew, as the real command does: a second each on a busy machine. */
const SLOW = 180_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk.toString()));
  return { stream, text: () => text };
}

/** The admin CLI with this database environment; `stdin` is what is piped in (nothing: an empty, non-terminal input). */
function cli(databaseEnv: Record<string, string>) {
  return async (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<Run> => {
    const stdout = collect();
    const stderr = collect();
    const code = await runAdmin(args, {
      env: { ...databaseEnv, ...options.env },
      stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  };
}

/** Where the CLI's database lives: `open` connects a server to the same one. */
interface Target {
  name: string;
  setUp(): Promise<{ env: Record<string, string>; open(): Promise<DatabaseHandle>; tearDown(): Promise<void> }>;
}

const pglite: Target = {
  name: 'PGlite DATA_DIR',
  async setUp() {
    const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
    // Already migrated: creating the database in a new directory (seconds of initdb and every
    // migration) is what the built server's test proves, with the same openPglite.
    await migratedPgliteDirectory(dir);
    return {
      env: { DATA_DIR: dir },
      // PGlite is single-process: the server opens the directory only after the CLI closed it.
      open: () => openPglite(dir),
      tearDown: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

const postgresTarget = (adminUrl: string): Target => ({
  name: 'PostgreSQL DATABASE_URL',
  async setUp() {
    const fresh = await freshPostgresDatabase(adminUrl);
    await fresh.handle.close();
    return { env: { DATABASE_URL: fresh.url }, open: () => openPostgres(fresh.url, 2), tearDown: fresh.drop };
  },
});

// The PostgreSQL pass would only repeat the PGlite pass's run on a directory.
const target = process.env.TEST_DATABASE_URL ? postgresTarget(process.env.TEST_DATABASE_URL) : pglite;

describe(`admin CLI on ${target.name}`, () => {
  let setup: Awaited<ReturnType<Target['setUp']>>;
  let admin: ReturnType<typeof cli>;

  beforeAll(async () => {
    setup = await target.setUp();
    admin = cli(setup.env);
  });
  afterAll(() => setup?.tearDown());

  /** Runs `run` against a server on the same database, closed before the CLI runs again. */
  async function withApi<T>(run: (app: FastifyInstance) => Promise<T>): Promise<T> {
    const database = await setup.open();
    const app = await buildApp({ db: database.db, config: testConfig({ SEED_DEMO: false }) });
    try {
      return await run(app);
    } finally {
      await app.close();
      await database.close();
    }
  }

  /** Signs in through the API; answers the status and the tokens, and how a refresh with `refreshToken` went. */
  async function signInThroughApi(app: FastifyInstance, tenant: string, email: string, password: string, refreshToken?: string) {
    const headers = { 'x-subdomain': tenant, 'x-client-kind': 'desktop' };
    const signIn = await app.inject({ method: 'POST', url: '/api/v1/auth/sign-in/', headers, payload: { email, password } });
    const refresh = refreshToken
      ? await app.inject({ method: 'POST', url: '/api/v1/auth/refresh/', headers, payload: { refresh_token: refreshToken } })
      : undefined;
    return { status: signIn.statusCode, body: signIn.json(), refreshStatus: refresh?.statusCode };
  }

  it(
    'creates a tenant and its first admin, who then signs in through the API',
    async () => {
      const tenant = await admin(['create-tenant', 'acme', 'Acme Corp']);
      expect(tenant).toMatchObject({ code: EXIT_OK, stderr: '' });
      const created = await admin(['create-admin', 'acme', 'Ops@Acme.test', 'Olivia Ops', '--password-stdin'], { stdin: 'Start!Pass123\n' });
      expect(created).toMatchObject({ code: EXIT_OK, stderr: '' });
      expect((await admin(['list-tenants'])).stdout).toMatch(/^acme\tAcme Corp\t/m);

      const signedIn = await withApi((app) => signInThroughApi(app, 'acme', 'ops@acme.test', 'Start!Pass123'));
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.member).toMatchObject({ email: 'ops@acme.test', name: 'Olivia Ops', is_admin: true, member_status: 'approved' });
    },
    SLOW,
  );

  it(
    'resets a password: the old one stops working and existing sessions are signed out',
    async () => {
      const before = await withApi((app) => signInThroughApi(app, 'acme', 'ops@acme.test', 'Start!Pass123'));
      const reset = await admin(['reset-password', 'acme', 'ops@acme.test'], { env: { ADMIN_PASSWORD: 'Fresh!Pass456' } });
      expect(reset.code).toBe(EXIT_OK);
      await withApi(async (app) => {
        const withOld = await signInThroughApi(app, 'acme', 'ops@acme.test', 'Start!Pass123', before.body.refresh_token);
        expect(withOld.status).toBe(401);
        expect(withOld.refreshStatus).toBe(401);
        expect((await signInThroughApi(app, 'acme', 'ops@acme.test', 'Fresh!Pass456')).status).toBe(200);
      });
    },
    SLOW,
  );

  it(
    'declares and changes a model: the admin sees it in the permission matrix, off for the groups until allowed',
    async () => {
      const args = ['set-model', 'acme', 'acme-gpt', '--display-name', 'Acme GPT', '--provider', 'openai-compatible', '--provider-model', 'gpt-x'];
      const costs = ['--context-limit', '128000', '--input-cost', '2.5', '--output-cost', '10', '--release-date', '2026-03-01'];
      expect(await admin([...args, ...costs, '--reasoning'])).toMatchObject({
        code: EXIT_OK,
        stdout: expect.stringMatching(/declared model "acme-gpt".*Model permissions/),
      });
      expect(await admin([...args, ...costs, '--no-chatbots', '--max-output', '16384'])).toMatchObject({
        code: EXIT_OK,
        stdout: expect.stringMatching(/updated model "acme-gpt"/),
      });
      expect((await admin(['list-models', 'acme'])).stdout).toMatch(
        /^acme-gpt\tAcme GPT\topenai-compatible:gpt-x\t128000 tokens, answers up to 16384\tin 2.5 \/ out 10 per 10K\t2026-03-01\tno-chatbots$/m,
      );
      // An output limit must leave room for the input.
      expect(await admin([...args, ...costs, '--max-output', '128000'])).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/maxOutputTokens: must be less than the context limit/),
      });

      await withApi(async (app) => {
        const headers = { 'x-subdomain': 'acme', 'x-client-kind': 'desktop' };
        const signIn = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/sign-in/',
          headers,
          payload: { email: 'ops@acme.test', password: 'Fresh!Pass456' },
        });
        const matrix = await app.inject({
          method: 'GET',
          url: '/api/v1/admin/llm-models/',
          headers: { ...headers, 'x-access-token': signIn.json().access_token },
        });
        expect(matrix.json().models).toEqual([
          expect.objectContaining({
            name: 'acme-gpt',
            display_name: 'Acme GPT',
            context_limit: 128000,
            supports_thinking: false,
            chatbot_allowed: false,
            available_group_ids: [],
          }),
        ]);
      });

      for (const [bad, message] of [
        [['--context-limit', 'lots', '--input-cost', '1', '--output-cost', '1'], /contextLimit/],
        [['--context-limit', '8000', '--input-cost=-1', '--output-cost', '1'], /inputCostPer10k/],
        [['--context-limit', '8000', '--input-cost', '-1', '--output-cost', '1'], /argument is ambiguous/],
        [['--context-limit', '8000', '--input-cost', '1'], /needs --output-cost/],
      ] as const) {
        const result = await admin([...args, ...bad]);
        expect({ bad, code: result.code, stderr: result.stderr }).toMatchObject({ code: EXIT_USAGE });
        expect(result.stderr).toMatch(message);
      }
      expect((await admin(['set-model', 'acme', 'x', '--display-name', 'X', '--provider', 'skynet', '--provider-model', 'x', ...costs])).stderr).toMatch(
        /provider/,
      );
    },
    SLOW,
  );

  it(
    'refuses bad input with exit code 2 and a message saying what is wrong',
    async () => {
      const cases: [string[], string | undefined, RegExp][] = [
        [['launch-rockets'], undefined, /unknown command "launch-rockets"/],
        [['create-tenant', 'Not_Valid', 'X'], undefined, /subdomain "Not_Valid"/],
        [['create-tenant', 'acme', 'Again'], undefined, /already exists/],
        [['create-tenant', 'only-subdomain'], undefined, /expected <subdomain> <name>/],
        [['create-admin', 'nowhere', 'a@b.test', 'A', '--password-stdin'], 'Good!Pass123', /no tenant "nowhere"/],
        [['create-admin', 'acme', 'not-an-email', 'A', '--password-stdin'], 'Good!Pass123', /not a valid email/],
        [['create-admin', 'acme', 'weak@acme.test', 'A', '--password-stdin'], 'short', /at least 8 characters/],
        // Issue 20: the API's rule for new passwords, common ones included.
        [['create-admin', 'acme', 'common@acme.test', 'A', '--password-stdin'], 'Password!123', /most common/],
        [['create-admin', 'acme', 'ops@acme.test', 'Again', '--password-stdin'], 'Good!Pass123', /already a member/],
        [['create-admin', 'acme', 'nopass@acme.test', 'A'], undefined, /no password given/],
        [['reset-password', 'acme', 'ghost@acme.test', '--password-stdin'], 'Good!Pass123', /no member "ghost@acme.test"/],
        [['list-tenants', '--frobnicate'], undefined, /frobnicate/],
      ];
      for (const [args, stdin, message] of cases) {
        const result = await admin(args, { stdin });
        expect({ args, code: result.code }).toEqual({ args, code: EXIT_USAGE });
        expect(result.stderr).toMatch(message);
      }
      expect((await admin(['list-tenants'])).stdout.trim().split('\n')).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'list-outbox prints the mail a server kept without SMTP (status, text), newest first, with --limit',
    async () => {
      /** A forgot-password request to a server on the database; its mail is delivered (to the log) before the answer. */
      const forgotPassword = () =>
        withApi(async (app) => {
          const forgot = await app.inject({
            method: 'POST',
            url: '/api/v1/auth/reset-password/',
            headers: { 'x-subdomain': 'acme' },
            payload: { email: 'ops@acme.test' },
          });
          expect(forgot.statusCode).toBe(200);
        });
      const resetLinks = (stdout: string) => [...stdout.matchAll(/\/auth\/reset\/([\w-]+)/g)].map((match) => match[1]);
      const mailHeaders = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('--- '));

      await forgotPassword();
      const [older] = resetLinks((await admin(['list-outbox'])).stdout);
      await forgotPassword();
      const all = await admin(['list-outbox']);
      expect(all.code).toBe(EXIT_OK);
      expect(mailHeaders(all.stdout)).toHaveLength(2);
      expect(mailHeaders(all.stdout)[0]).toMatch(/^--- \S+Z {2}passwordReset {2}to ops@acme\.test {2}\(\w+\) {2}sent$/);
      const [newer, second] = resetLinks(all.stdout);
      expect(second).toBe(older);
      expect(newer).not.toBe(older);

      const newest = await admin(['list-outbox', '--limit', '1']);
      expect(mailHeaders(newest.stdout)).toHaveLength(1);
      expect(resetLinks(newest.stdout)).toEqual([newer]);

      const bad = await admin(['list-outbox', '--limit', 'zero']);
      expect(bad.code).toBe(EXIT_USAGE);
      expect(bad.stderr).toMatch(/--limit/);
    },
    SLOW,
  );
});

describe('admin CLI configuration', () => {
  it('answers 2 for an invalid DATABASE_URL and 1 when the database cannot be reached', async () => {
    const invalid = await cli({ DATABASE_URL: 'mysql://nope' })(['list-tenants']);
    expect(invalid.code).toBe(EXIT_USAGE);
    expect(invalid.stderr).toMatch(/DATABASE_URL/);
    const unreachable = await cli({ DATABASE_URL: 'postgres://app:app@127.0.0.1:1/none' })(['list-tenants']);
    expect(unreachable.code).toBe(EXIT_FAILURE);
    expect(unreachable.stderr).toMatch(/^failed: /);
  });
});
