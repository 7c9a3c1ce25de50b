/**
 * The product as `npm start` runs it: the esbuild bundle in a directory of its own, started with
 * plain `node` (no TypeScript loader), on a fresh PGlite directory. It must find its migrations,
 * assets, PGlite's wasm and argon2's native binding from there, and fork its document parsing
 * worker (workers/documentWorker.js); the built admin CLI must take a password on standard input
 * and report bad input through its exit code.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer, stopBuiltServer } from '../fixtures/builtServer';
import { sampleDocx, samplePdf } from '../fixtures/sampleFiles';
import { waitFor } from './helpers/memberTransfer';

// Inside the project (.data is ignored), so that the bundle resolves the project's node_modules.
const buildDir = resolve('.data', `build-test-${randomBytes(4).toString('hex')}`);
/** A new PGlite directory of the file's own (made in beforeAll, so a skipped run leaves none behind). */
let dataDir: string;
let env: NodeJS.ProcessEnv;

const startServer = () => startBuiltServer(join(buildDir, 'index.js'), env);

const runBuiltAdmin = (args: string[], input = '') =>
  spawnSync(process.execPath, [join(buildDir, 'admin.js'), ...args], { env, input, encoding: 'utf8', timeout: 120_000 });

// Always on a PGlite directory (DATABASE_URL is emptied): the PGlite pass of `npm test` runs it,
// the PostgreSQL pass (TEST_DATABASE_URL) would only repeat it.
describe.skipIf(process.env.TEST_DATABASE_URL)('the built server (npm start)', () => {
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'built-server-'));
    env = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      FILES_DIR: join(dataDir, 'files'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      JOB_POLL_INTERVAL_SECONDS: '0.5',
      DEMO_MCP_SERVER: 'true',
    };
    const build = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', buildDir], { encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
  });
  afterAll(() => {
    rmSync(buildDir, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // One server process for both: the second start of a migrated directory proves nothing the first did not.
  describe('started with plain node on a new PGlite directory', () => {
    let server: BuiltServer;
    beforeAll(async () => {
      server = await startServer();
    }, 180_000);
    // Stopped before the CLI below opens the directory: PGlite is single-process.
    afterAll(() => server && stopBuiltServer(server.child));

    it('migrates and seeds the new database, and serves the API and assets', async () => {
      const { origin } = server;
      const tenant = await fetch(`${origin}/api/v1/tenants/`);
      expect(tenant.status).toBe(200);
      expect(await tenant.json()).toMatchObject({ subdomain: 'demo', logo_url: '/api/v1/assets/demo-logo.svg' });
      expect((await fetch(`${origin}/api/v1/assets/demo-logo.svg`)).headers.get('content-type')).toMatch(/svg/);
      const signIn = await fetch(`${origin}/api/v1/auth/sign-in/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@demo.test', password: 'DemoAdmin!234' }),
      });
      expect(signIn.status).toBe(200);
      // The demo MCP server runs from the bundle too, registered with its two tools on.
      const { access_token: token } = (await signIn.json()) as { access_token: string };
      const servers = await fetch(`${origin}/api/v1/admin/mcp-servers/`, { headers: { 'x-access-token': token } });
      expect(((await servers.json()) as { items: unknown[] }).items).toEqual([expect.objectContaining({ tool_count: 2, enabled_tool_count: 2 })]);
    });

    it('parses uploaded documents in its worker process: pages counted on upload, text extracted by the job', async () => {
      const { origin } = server;
      const signIn = await fetch(`${origin}/api/v1/auth/sign-in/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'member@demo.test', password: 'DemoMember!234' }),
      });
      const { access_token: token } = (await signIn.json()) as { access_token: string };
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(samplePdf(['built page one', 'built page two']))]), 'built.pdf');
      form.append('files', new Blob([new Uint8Array(sampleDocx(['built paragraph']))]), 'built.docx');
      const upload = await fetch(`${origin}/api/v1/files/`, { method: 'POST', headers: { 'x-access-token': token }, body: form });
      expect(upload.status).toBe(200);
      const ids = ((await upload.json()) as { items: { id: number }[] }).items.map((item) => item.id);
      const states = await waitFor(
        async () => {
          const progress = await fetch(`${origin}/api/v1/files/progress?file_ids=${ids.join(',')}`, { headers: { 'x-access-token': token } });
          const { items } = (await progress.json()) as { items: { status: string; parsed_percentage: number }[] };
          return items.every((item) => item.status !== 'parsing') ? items : undefined;
        },
        'the documents to be parsed',
        60_000,
      );
      expect(states.map((state) => [state.status, state.parsed_percentage])).toEqual([
        ['parsed', 100],
        ['parsed', 100],
      ]);
    }, 90_000);
  });

  it('runs the built admin CLI: password on standard input, exit code 2 on bad input', () => {
    expect(runBuiltAdmin(['create-tenant', 'built', 'Built Co']).status).toBe(0);
    const created = runBuiltAdmin(['create-admin', 'built', 'root@built.test', 'Root', '--password-stdin'], 'Built!Pass123\n');
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    expect(runBuiltAdmin(['list-tenants']).stdout).toMatch(/^built\tBuilt Co\t/m);
    const weak = runBuiltAdmin(['create-admin', 'built', 'weak@built.test', 'Weak', '--password-stdin'], 'weak\n');
    expect(weak.status).toBe(2);
    expect(weak.stderr).toMatch(/password/);
  }, 180_000);
});
