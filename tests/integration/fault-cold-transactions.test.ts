/**
 * Issue 19, point 1, as a class: every service that opens a transaction, run on PGlite by a server
 * that has just started on a database already in use, so that nothing of this process is cached
 * (signing keys, tenants, members, input rules: AUTH_CACHE_TTL_SECONDS=0 even reads the latter three
 * on every use). A service that reaches the outer database handle inside its transaction then fails
 * on the transaction guard (a 500, a failed job, an error in the log) instead of freezing the server.
 *
 * The list is checked, not trusted: every `.transaction(` call on an outer handle in src/server is
 * found by reading the source, every transaction the sweep opens is recorded with its call site, and
 * the last test fails for a call site that nothing here ran. A new transactional service therefore
 * needs a step here (or a stated reason in EXEMPT).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { setClock } from '../../src/server/clock';
import { type ServerConfig, testConfig } from '../../src/server/config';
import { type DatabaseHandle, openPglite } from '../../src/server/db/client';
import { seedDemoTenant } from '../../src/server/db/seed';
import { backgroundTasks, members } from '../../src/server/db/schema';
import { createAdmin, createTenant, resetPassword } from '../../src/server/domains/tenants/provisioning';
import { csvLines } from '../../src/server/storage/spreadsheet';
import { API_PREFIX } from '../../src/shared/domain/http';
import { startFixtureMcpServer } from '../fixtures/mcpServer';
import { migratedPgliteDirectory } from '../fixtures/pgliteDirectory';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER } from '../fixtures/testServer';
import { fastJobSettings } from './helpers/crashJobs';
import { waitFor } from './helpers/memberTransfer';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are arbitrary JSON, checked by the assertions
type Json = any;

const SERVER_DIR = resolve('src/server');

/** Call sites that no step here runs, each with its reason. Keep it empty where possible. */
const EXEMPT: Record<string, string> = {};

// ---- Where transactions are opened: read from the source, recorded at run time ----

/** The function a line belongs to: the nearest declaration above it (a function or an object method). */
function enclosingFunction(lines: string[], index: number): string {
  for (let i = index; i >= 0; i -= 1) {
    const declared = /\bfunction\*?\s+(\w+)\s*[<(]/.exec(lines[i]!) ?? /^\s*(?:async\s+)?(\w+)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$/.exec(lines[i]!);
    if (declared && !['if', 'for', 'while', 'switch', 'catch'].includes(declared[1]!)) return declared[1]!;
  }
  return '(module)';
}

/**
 * Every line of a source file that opens a transaction on an outer handle (savepoints, `tx.transaction(`,
 * run inside one already), keyed `path#function` (and `#2`, `#3` for further ones in one function).
 */
function transactionSitesOf(file: string): Map<number, string> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const sites = new Map<number, string>();
  const seen = new Map<string, number>();
  lines.forEach((line, index) => {
    const call = /([\w.]*)\.transaction\(/.exec(line);
    // A chained call (`await deps.db\n  .transaction(…)`) names its receiver at the end of the line before.
    const receiver = call && (call[1] || /([\w.]+)\s*$/.exec(lines[index - 1] ?? '')?.[1]);
    if (!receiver || receiver === 'tx' || line.trimStart().startsWith('*') || line.trimStart().startsWith('//')) return;
    const base = `${relative(SERVER_DIR, file)}#${enclosingFunction(lines, index)}`;
    const nth = (seen.get(base) ?? 0) + 1;
    seen.set(base, nth);
    sites.set(index + 1, nth === 1 ? base : `${base}#${nth}`);
  });
  return sites;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const expectedSites = new Set(sourceFiles(SERVER_DIR).flatMap((file) => [...transactionSitesOf(file).values()]));
const openedSites = new Set<string>();
const unknownSites = new Set<string>();
const sitesByFile = new Map<string, Map<number, string>>();
const originalTransaction = PGlite.prototype.transaction;

/** Records the call site of every transaction PGlite opens (the first frame in src/server past the client). */
function recordTransactions() {
  PGlite.prototype.transaction = function recorded(this: PGlite, ...args: Parameters<PGlite['transaction']>) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 50;
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    const frame = stack
      .split('\n')
      .map((line) => /\((\/[^)]+):(\d+):\d+\)$/.exec(line) ?? /at (\/[^ ]+):(\d+):\d+$/.exec(line))
      .find((match) => match && match[1]!.startsWith(SERVER_DIR) && !match[1]!.endsWith('/db/client.ts'));
    if (frame) {
      const file = frame[1]!;
      if (!sitesByFile.has(file)) sitesByFile.set(file, transactionSitesOf(file));
      const site = sitesByFile.get(file)!.get(Number(frame[2]));
      if (site) openedSites.add(site);
      else unknownSites.add(`${relative(SERVER_DIR, file)}:${frame[2]}`);
    }
    return originalTransaction.apply(this, args);
  } as PGlite['transaction'];
}

// ---- The servers ----

let directory: string;
let sink: SmtpSink;
let config: ServerConfig;
let handle: DatabaseHandle | undefined;
let app: FastifyInstance | undefined;
let apiBase: string;
const logLines: string[] = [];
let now = new Date();

async function boot(): Promise<void> {
  handle = await openPglite(join(directory, 'pglite'));
  await seedDemoTenant(handle.db, { subdomain: 'demo', tenantName: 'Demo' });
  app = await buildApp({ db: handle.db, config, logger: { level: 'warn', stream: { write: (line: string) => void logLines.push(line) } } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apiBase = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${API_PREFIX}`;
}

async function shutDown(): Promise<void> {
  if (app) {
    const closing = app.close();
    app.server.closeAllConnections();
    await closing;
  }
  await handle?.close();
  app = undefined;
  handle = undefined;
}

async function call(path: string, options: { method?: string; token?: string; body?: unknown; tenant?: string; form?: FormData; desktop?: boolean } = {}) {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers['x-access-token'] = options.token;
  if (options.tenant) headers['x-subdomain'] = options.tenant;
  if (options.desktop) headers['x-client-kind'] = 'desktop';
  const response = await fetch(`${apiBase}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  return { status: response.status, body: (text && isJson ? JSON.parse(text) : text) as Json };
}

/** A call that must succeed; its body. */
async function ok(path: string, options: Parameters<typeof call>[1] = {}): Promise<Json> {
  const result = await call(path, options);
  expect(result.status, `${options.method ?? 'GET'} ${path}: ${JSON.stringify(result.body)}`).toBeLessThan(300);
  return result.body;
}

const signIn = async (credentials: { email: string; password: string }, tenant?: string) =>
  (await ok('/auth/sign-in/', { method: 'POST', body: credentials, tenant, desktop: true })) as {
    access_token: string;
    refresh_token: string;
    member: { id: number };
  };

async function settled(taskId: number, token: string): Promise<Json> {
  return waitFor(async () => {
    const task = await ok(`/tasks/${taskId}/`, { token });
    return task.status === 'running' ? undefined : task;
  }, `task ${taskId}`);
}

async function settledTasks(taskIds: number[]): Promise<void> {
  await waitFor(
    async () => {
      if (taskIds.length === 0) return true;
      const rows = await handle!.db.select({ status: backgroundTasks.status }).from(backgroundTasks).where(inArray(backgroundTasks.id, taskIds));
      return rows.every((row) => row.status !== 'running') ? true : undefined;
    },
    `tasks ${taskIds.join(', ')}`,
  );
}

function mailedCode(email: string): string | undefined {
  return sink.received
    .filter((mail) => mail.envelopeTo.includes(email))
    .at(-1)
    ?.parsed.text?.match(/\b\d{6}\b/)?.[0];
}

function filesForm(parts: { name: string; bytes: Buffer | string; type?: string }[]): FormData {
  const form = new FormData();
  for (const part of parts)
    form.append(
      'files',
      new Blob([typeof part.bytes === 'string' ? part.bytes : new Uint8Array(part.bytes)], { type: part.type ?? 'application/octet-stream' }),
      part.name,
    );
  return form;
}

/** Reads a chat answer to its end; its frames. */
async function chat(token: string, chatbotId: number, body: Record<string, unknown>) {
  const response = await fetch(`${apiBase}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': token },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    frames: text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)) as Json),
  };
}

const REFUSED_INVITEE = 'cold-refused@example.test';

let adminSession: Awaited<ReturnType<typeof signIn>>;
let memberSession: Awaited<ReturnType<typeof signIn>>;
let admin: string;
let member: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'cold-transactions-'));
  // One address the mail server refuses for good: its invitation is withdrawn in a transaction of its own.
  sink = await startSmtpSink({ refuse: (address) => (address === REFUSED_INVITEE ? 550 : undefined) });
  config = testConfig({
    PORT: 0,
    HOST: '127.0.0.1',
    DATA_DIR: join(directory, 'pglite'),
    FILES_DIR: join(directory, 'files'),
    SMS_OUTBOX_DIR: join(directory, 'sms-outbox'),
    // The SSO platforms it saves point at loopback, which the outbound guard refuses unless allowed.
    OUTBOUND_ALLOW: ['127.0.0.0/8', '::1'],
    SMTP_URL: sink.url,
    DEMO_TOKEN_DELAY_MS: 1,
    // Nothing of the tenant, the member or the input rules is kept: each use reads them anew.
    AUTH_CACHE_TTL_SECONDS: 0,
    SIGN_IN_RATE_LIMIT: 10_000,
    SIGN_IN_EMAIL_RATE_LIMIT: 10_000,
    SIGN_UP_RATE_LIMIT: 10_000,
    BILLING_RENEWAL_SWEEP_SECONDS: 0,
    CREDIT_PERIOD_CHECK_MINUTES: 0,
    TASK_FILE_SWEEP_MINUTES: 0,
    ...fastJobSettings,
  });
  setClock(() => now);
  // The database in use: a first process made it (on the migrated template: initdb and the
  // migrations are not what this file tests), signed both accounts in, and stopped.
  await migratedPgliteDirectory(join(directory, 'pglite'));
  await boot();
  adminSession = await signIn(DEMO_ADMIN);
  memberSession = await signIn(DEMO_MEMBER);
  await shutDown();
  // The restart, with nothing of the first process left and every transaction recorded from here on.
  recordTransactions();
  await boot();
}, 60_000);

afterAll(async () => {
  PGlite.prototype.transaction = originalTransaction;
  setClock(null);
  await shutDown();
  await sink?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('every transactional service on a cold server (PGlite)', () => {
  it('rotates both sessions first, while no signing key is cached', async () => {
    const refreshed = await ok('/auth/refresh/', { method: 'POST', body: { refresh_token: adminSession.refresh_token }, desktop: true });
    admin = refreshed.access_token;
    member = (await ok('/auth/refresh/', { method: 'POST', body: { refresh_token: memberSession.refresh_token }, desktop: true })).access_token;
    expect(refreshed.member.id).toBe(adminSession.member.id);
  });

  it('signs a visitor up, has the admin approve them, and removes them again', async () => {
    const email = 'cold-visitor@example.test';
    await ok('/auth/code/', { method: 'POST', body: { email, language: 'en' } });
    const code = await waitFor(async () => mailedCode(email), 'the verification mail', 20_000);
    const groups = (await ok('/member-groups/')).items as { id: number; is_default: boolean }[];
    const fields = (await ok('/custom-fields/')).items as { id: number; field_name: string }[];
    const policies = (await ok('/policies/')).items as { id: number; is_mandatory: boolean }[];
    await ok('/auth/sign-up/', {
      method: 'POST',
      body: {
        email,
        password: 'Visitor!Kq234',
        name: 'Cold Visitor',
        language: 'en',
        custom_fields: [{ custom_field_id: fields.find((field) => field.field_name === 'Department')!.id, value: 'Research' }],
        auth_code: code,
        default_member_group_id: groups.find((group) => group.is_default)!.id,
        member_group_ids: [],
        agreements: policies.filter((policy) => policy.is_mandatory).map((policy) => policy.id),
      },
    });
    const [visitor] = await handle!.db.select({ id: members.id }).from(members).where(eq(members.email, email));
    await ok(`/admin/members/${visitor!.id}/process-pending-request/`, { method: 'POST', token: admin, body: { approve: true } });
    await ok(`/admin/members/${visitor!.id}/`, { method: 'PATCH', token: admin, body: { name: 'Cold Visitor Renamed' } });
    await ok('/admin/members/bulk/', { method: 'PATCH', token: admin, body: { member_ids: [visitor!.id], credit_quota: 100 } });
    await ok('/admin/members/bulk/', { method: 'PATCH', token: admin, body: { member_ids: [visitor!.id], member_status: 'deactivated' } });
    await ok(`/admin/members/${visitor!.id}/`, { method: 'PATCH', token: admin, body: { member_status: 'approved' } });
    await ok('/admin/members/bulk/delete/', { method: 'POST', token: admin, body: { member_ids: [visitor!.id] } });
  });

  it('writes mails with what they are about: an invitation, a password reset, an inquiry', async () => {
    const invited = await ok('/admin/invitations/bulk/', {
      method: 'POST',
      token: admin,
      body: { members: [{ email: 'cold-invitee@example.test', name: 'Cold Invitee' }, { email: REFUSED_INVITEE }] },
    });
    expect(invited.results.map((row: { result: string }) => row.result)).toEqual(['invited', 'invitation_email_failed']);
    await ok('/auth/reset-password/', { method: 'POST', body: { email: DEMO_MEMBER.email } });
    await ok('/inquiries/', { method: 'POST', token: member, body: { inquiry: 'Where is the manual?', email: DEMO_MEMBER.email } });
  });

  it("writes the admin console's settings", async () => {
    await ok('/admin/tenant-settings/', { method: 'PATCH', token: admin, body: { manual_url: 'https://example.test/manual' } });
    await ok('/admin/sign-up-settings/', { method: 'PATCH', token: admin, body: { group_change_approval: true } });

    const field = await ok('/admin/custom-fields/', { method: 'POST', token: admin, body: { field_name: 'Cold field' } });
    await ok(`/admin/custom-fields/${field.id}/`, { method: 'PATCH', token: admin, body: { field_name: 'Cold field renamed' } });
    await ok(`/admin/custom-fields/${field.id}/`, { method: 'DELETE', token: admin });

    const mode = await ok('/admin/task-modes/', { method: 'POST', token: admin, body: { en_name: 'Cold mode', instructions: 'Answer coldly.' } });
    await ok(`/admin/task-modes/${mode.id}/`, { method: 'PATCH', token: admin, body: { ko_name: '차가운 모드' } });
    await ok(`/admin/task-modes/${mode.id}/`, { method: 'DELETE', token: admin });

    const policy = await ok('/admin/policies/', {
      method: 'POST',
      token: admin,
      body: { policy_name: 'Cold rules', kind: 'markdown', is_mandatory: false, markdown_content: 'Be kind.' },
    });
    await ok(`/admin/policies/${policy.id}/`, { method: 'PATCH', token: admin, body: { markdown_content: 'Be very kind.' } });
    await ok(`/admin/policies/${policy.id}/`, { method: 'DELETE', token: admin });

    const announcement = await ok('/admin/announcements/', { method: 'POST', token: admin, body: { content: 'Cold news', is_active: false } });
    await ok(`/admin/announcements/${announcement.id}/`, { method: 'PATCH', token: admin, body: { content: 'Colder news' } });
    await ok(`/admin/announcements/${announcement.id}/`, { method: 'DELETE', token: admin });

    const word = await ok('/admin/restricted-words/', { method: 'POST', token: admin, body: { word: 'glacier' } });
    await ok(`/admin/restricted-words/${word.id}/`, { method: 'DELETE', token: admin });
    await ok('/admin/pii-settings/', { method: 'PATCH', token: admin, body: { phone: 'mask' } });

    const platform = await ok('/admin/sso-platforms/', {
      method: 'POST',
      token: admin,
      body: {
        sso_platform_name: 'Cold directory',
        settings: { kind: 'directory', url: 'ldap://127.0.0.1/', bind_dn: '', bind_password: '', search_base: 'dc=cold,dc=test' },
      },
    });
    await ok(`/admin/sso-platforms/${platform.id}/`, {
      method: 'PUT',
      token: admin,
      body: {
        sso_platform_name: 'Colder directory',
        settings: { kind: 'directory', url: 'ldap://127.0.0.1/', bind_dn: '', bind_password: '', search_base: 'dc=cold,dc=test' },
      },
    });
    await ok(`/admin/sso-platforms/${platform.id}/`, { method: 'DELETE', token: admin });

    await ok('/admin/sso-member-whitelist/bulk-upsert/', { method: 'POST', token: admin, body: { sso_member_whitelist: ['listed@cold.test'] } });
    const listed = (await ok('/admin/sso-member-whitelist/', { token: admin })).items as { id: number }[];
    await ok('/admin/sso-member-whitelist/bulk-delete/', { method: 'POST', token: admin, body: { sso_member_whitelist_ids: listed.map((row) => row.id) } });

    const invited = await ok('/admin/invitations/bulk/', {
      method: 'POST',
      token: admin,
      body: { members: [{ email: 'invited@cold.test', name: 'Invited' }] },
    });
    await ok('/admin/invitations/bulk/delete/', { method: 'POST', token: admin, body: { invitation_ids: [invited.results[0].invitation_id] } });
  });

  it('writes groups, model permissions and credit allocations', async () => {
    const group = await ok('/admin/member-groups/', { method: 'POST', token: admin, body: { ko_name: '냉기', en_name: 'Cold group' } });
    await ok(`/admin/member-groups/${group.id}/`, { method: 'PATCH', token: admin, body: { en_name: 'Colder group' } });
    const { models } = await ok('/admin/llm-models/', { token: admin });
    const limited = (models as { id: number; is_unlimited: boolean }[]).find((model) => !model.is_unlimited)!;
    await ok(`/admin/llm-models/${limited.id}/member-groups/${group.id}/`, { method: 'PATCH', token: admin, body: { is_available: false } });
    await ok('/admin/credits/allocation/', { method: 'PUT', token: admin, body: { groups: [{ id: group.id, credit_quota: 500 }], members: [] } });

    // The member asks to join it (approval on), and leaves it again through the admin.
    const defaultGroup = ((await ok('/member-groups/')).items as { id: number; is_default: boolean }[]).find((row) => row.is_default)!.id;
    await ok(`/members/${memberSession.member.id}/group/`, {
      method: 'PATCH',
      token: member,
      body: { default_member_group_id: defaultGroup, member_group_ids: [defaultGroup, group.id] },
    });
    await ok('/admin/sign-up-settings/', { method: 'PATCH', token: admin, body: { group_change_approval: false } });
    await ok(`/members/${memberSession.member.id}/group/`, {
      method: 'PATCH',
      token: member,
      body: { default_member_group_id: defaultGroup, member_group_ids: [defaultGroup, group.id] },
    });
    await ok(`/admin/member-groups/${group.id}/members/${memberSession.member.id}/`, { method: 'DELETE', token: admin });
    await ok(`/admin/member-groups/${group.id}/`, { method: 'DELETE', token: admin });
  });

  it("runs the member's own writes: profile, API keys, a chatbot through studio, review, documents, chats, a search of them and an import", async () => {
    await ok(`/members/${memberSession.member.id}/`, { method: 'PATCH', token: member, body: { name: 'Cold Member' } });
    const chatbot = await ok('/chatbots/', { method: 'POST', token: member });
    await ok(`/chatbots/${chatbot.id}/`, { method: 'PATCH', token: member, body: { en_name: 'Cold helper' } });
    await ok(`/chatbots/${chatbot.id}/access/`, { method: 'PATCH', token: member, body: { is_public: true, member_group_ids: [] } });
    await ok(`/admin/chatbots/${chatbot.id}/process-publish-request/`, { method: 'POST', token: admin, body: { approve: true } });
    await ok(`/chatbots/${chatbot.id}/relations/`, { method: 'POST', token: member });

    const key = await ok('/apikeys/', { method: 'POST', token: member, body: { name: 'Cold key', chatbot_ids: [chatbot.id] } });
    await ok(`/apikeys/${key.id}/`, { method: 'PATCH', token: member, body: { name: 'Colder key' } });

    const added = await ok(`/chatbots/${chatbot.id}/documents/`, {
      method: 'POST',
      token: member,
      form: filesForm([{ name: 'cold.txt', bytes: 'Glaciers move slowly. Ice cores keep the air of past ages.', type: 'text/plain' }]),
    });
    await waitFor(async () => {
      const documents = (await ok(`/chatbots/${chatbot.id}/`, { token: member })).documents as { id: number; status: string }[];
      const status = documents.find((row) => row.id === added.items[0].id)?.status;
      return status === 'parsing' ? undefined : status;
    }, 'the document to be parsed');

    const answered = await chat(member, chatbot.id, { text: 'How fast do glaciers move?' });
    expect(answered.status).toBe(200);
    expect(answered.frames.at(-1)).toMatchObject({ type: 'end' });
    // Searching My chats runs in a transaction of its own (its planner settings).
    const found = await ok('/sessions/?search_term=glaciers', { token: member });
    expect(found.items).toHaveLength(1);
    // Importing a chat's export writes the session and its messages in one transaction.
    const exported = await ok(`/sessions/${found.items[0].hash_id}/export/?format=json`, { token: member });
    await ok('/sessions/import/', { method: 'POST', token: member, body: typeof exported === 'string' ? JSON.parse(exported) : exported });
    const general = ((await ok('/chatbots/?include_default=true', { token: member })).items as { id: number; en_name: string }[]).find(
      (row) => row.en_name === 'General Assistant',
    )!.id;
    const image = await chat(member, general, { text: 'A glacier at dawn', image_generation: true });
    expect(image.status).toBe(200);
    expect(image.frames.at(-1)).toMatchObject({ type: 'end' });

    // No credit left: the turn is taken back (402).
    await ok('/admin/members/bulk/', { method: 'PATCH', token: admin, body: { member_ids: [memberSession.member.id], credit_quota: 0 } });
    expect((await chat(member, general, { text: 'Anything?' })).status).toBe(402);
  });

  it('runs the background work: member upload and export, billing with its renewal, credit periods', async () => {
    const upload = await ok('/admin/members/bulk-upload/', {
      method: 'POST',
      token: admin,
      form: filesForm([
        {
          name: 'members.csv',
          bytes: csvLines([
            ['name', 'email', 'default_member_group', 'sso_id', 'Department', 'Employee number'],
            ['Uploaded', 'uploaded@cold.test', 'Default group', '', 'Eng', ''],
          ]),
        },
      ]),
    });
    expect(await settled(upload.id, admin)).toMatchObject({ status: 'completed' });
    const exported = await ok('/admin/members/export-task/?format=csv', { token: admin });
    expect(await settled(exported.id, admin)).toMatchObject({ status: 'completed' });

    const plans = (await ok('/member-billing-plans/', { token: admin })).items as { id: number; en_name: string }[];
    const plan = (name: string) => plans.find((row) => row.en_name === name)!.id;
    await ok(`/member-billing-plans/${plan('Starter')}/`, {
      method: 'POST',
      token: admin,
      body: { provider: 'demo', card_number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
    });
    await ok(`/member-billing-plans/${plan('Team')}/subscribe/`, { method: 'POST', token: admin, body: {} });
    await ok(`/member-billing-plans/${plan('Starter')}/subscribe/`, { method: 'POST', token: admin, body: {} });
    await ok(`/member-billing-plans/${plan('Team')}/subscribe/`, { method: 'POST', token: admin, body: {} });
    await ok('/membership/cancel/', { method: 'POST', token: admin });
    await ok('/membership/resume/', { method: 'POST', token: admin });
    await ok('/membership/cancel/', { method: 'POST', token: admin });

    // Past the paid period: the cancelled membership ends, and a new credit month begins.
    now = new Date(Date.now() + 40 * 86_400_000);
    await settledTasks(await app!.sweepRenewals());
    await settledTasks(await app!.creditPeriods.enqueueDue());
    expect((await ok('/membership/', { token: admin })).membership).toBeNull();
  });

  it("keeps the prompt library: the tenant's prompts and a member's own", async () => {
    for (const [base, token] of [
      ['/admin/prompts/', admin],
      ['/prompts/', member],
    ] as const) {
      const created = await ok(base, { method: 'POST', token, body: { name: 'Cold prompt', text: 'About {{topic}}' } });
      await ok(`${base}${created.id}/`, { method: 'PATCH', token, body: { name: 'Cold prompt, renamed' } });
      await ok(`${base}${created.id}/`, { method: 'DELETE', token });
    }
  });

  it('registers an MCP server, lists its tools again, gives a tool to a group and removes the server (issue 24)', async () => {
    const fixture = await startFixtureMcpServer({ tools: ['cold_tool'] });
    try {
      const body = { name: 'Cold tools', url: fixture.url };
      const server = await ok('/admin/mcp-servers/', { method: 'POST', token: admin, body });
      await ok(`/admin/mcp-servers/${server.id}/`, { method: 'PUT', token: admin, body: { ...body, description: 'Renamed' } });
      fixture.setTools(['cold_tool', 'warm_tool']);
      await ok(`/admin/mcp-servers/${server.id}/refresh/`, { method: 'POST', token: admin });
      const { items, groups } = await ok(`/admin/mcp-servers/${server.id}/tools/`, { token: admin });
      await ok(`/admin/mcp-servers/${server.id}/tools/${items[0].id}/`, {
        method: 'PATCH',
        token: admin,
        body: { is_enabled: true, member_group_ids: [groups[0].id] },
      });
      await ok(`/admin/mcp-servers/${server.id}/`, { method: 'DELETE', token: admin });
    } finally {
      await fixture.close();
    }
  });

  it('provisions a tenant and seeds another on the same database, as the admin CLI and a start do', async () => {
    const { db } = handle!;
    await createTenant(db, { subdomain: 'cold-tenant', name: 'Cold tenant' });
    await createAdmin(db, { tenant: 'cold-tenant', email: 'root@cold.test', name: 'Root', password: 'ColdRoot!234' });
    await resetPassword(db, { tenant: 'cold-tenant', email: 'root@cold.test', password: 'ColdRoot!567' });
    expect((await signIn({ email: 'root@cold.test', password: 'ColdRoot!567' }, 'cold-tenant')).member.id).toBeGreaterThan(0);
    expect(await seedDemoTenant(db, { subdomain: 'cold-seeded', tenantName: 'Cold seeded' })).toEqual({ created: true });
    expect((await signIn(DEMO_MEMBER, 'cold-seeded')).member.id).toBeGreaterThan(0);
  });

  it('ran every call site that opens a transaction, and none of them used the outer handle', () => {
    expect(unknownSites, 'transactions opened where the source scan sees none').toEqual(new Set());
    const missed = [...expectedSites].filter((site) => !openedSites.has(site) && !(site in EXEMPT)).sort();
    expect(missed, 'call sites that open a transaction but no step here runs').toEqual([]);
    expect(
      Object.keys(EXEMPT).filter((site) => openedSites.has(site) || !expectedSites.has(site)),
      'exemptions no longer needed',
    ).toEqual([]);
    expect(logLines.filter((line) => line.includes('OuterDatabaseInTransaction') || line.includes('open transaction'))).toEqual([]);
  });
});
