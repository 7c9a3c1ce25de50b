/**
 * `npm run bench:ledger`: what a chat send costs as the credit ledger grows. On a fresh PostgreSQL
 * database (BENCH_DATABASE_URL or TEST_DATABASE_URL; BENCH_LEDGER_DB=pglite for PGlite) with the
 * demo tenant and BENCH_MEMBERS members (default 200), it measures the time to the first byte of a
 * send (the response headers, written once the send is checked, saved and reserved) one at a time
 * and BENCH_CONCURRENCY (default 200) at once, each by another member; then seeds BENCH_LEDGER_ROWS
 * (default 2,000,000) ledger rows spread over the members and the last year with generate_series,
 * brings the balances up to date the way migration 0003 backfills them, and measures again.
 * The sends come from a child process. Figures only; nothing is asserted.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { testConfig } from '../src/server/config';
import type { Database } from '../src/server/db/client';
import { DEMO_MEMBER, seedDemoTenant } from '../src/server/db/seed';
import { creditLedger, memberGroupLinks, members } from '../src/server/db/schema';
import { API_PREFIX } from '../src/shared/domain/http';
import { startFakeLlmUpstream } from '../tests/fixtures/fakeLlmUpstream';
import { ask, envInt, forkRole, ms, nextMessage, openBenchDatabase, percentile, serveRequests } from './benchSupport';

const SCRIPT = fileURLToPath(import.meta.url);
const MEMBERS = envInt('BENCH_MEMBERS', 200);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 200);
const LEDGER_ROWS = envInt('BENCH_LEDGER_ROWS', 2_000_000);
const SEQUENTIAL_SENDS = envInt('BENCH_SEQUENTIAL_SENDS', 30);
const KIND = process.env.BENCH_LEDGER_DB === 'pglite' ? 'pglite' : 'postgres';
const PORT = envInt('BENCH_PORT', 3430);
const BACKFILL = new URL('../src/server/db/migrations/0003_credit_balances.sql', import.meta.url);

// ---------------------------------------------------------------- sending process

function senderRole(): void {
  let tokens: string[] = [];
  serveRequests({
    signIn: async (message) => {
      const { apiBase, emails } = message as { apiBase: string; emails: string[] };
      tokens = [];
      for (const email of emails) {
        const response = await fetch(`${apiBase}/auth/sign-in/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
          body: JSON.stringify({ email, password: DEMO_MEMBER.password }),
        });
        tokens.push(((await response.json()) as { access_token: string }).access_token);
      }
      return {};
    },
    send: async (message) => {
      const { chatUrl, count, concurrency } = message as { chatUrl: string; count: number; concurrency: number };
      const firstBytes: number[] = [];
      let failed = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            const index = next++;
            const started = performance.now();
            const response = await fetch(chatUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-access-token': tokens[index % tokens.length]! },
              body: JSON.stringify({ text: `ledger bench ${index}` }),
            });
            const firstByte = performance.now() - started;
            await response.text();
            if (response.status === 200) firstBytes.push(firstByte);
            else failed++;
          }
        }),
      );
      return { firstBytes, failed };
    },
  });
  process.send!({ type: 'ready' });
}

// ---------------------------------------------------------------- main

async function addMembers(db: Database, count: number): Promise<{ emails: string[]; firstId: number; lastId: number }> {
  const [demo] = await db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
  if (!demo) throw new Error('demo member missing');
  const rows = await db
    .insert(members)
    .values(
      Array.from({ length: count }, (_, i) => ({
        ...demo,
        id: undefined,
        email: `ledger-${i}@demo.test`,
        name: `Ledger member ${i}`,
        createdAt: undefined,
        updatedAt: undefined,
      })),
    )
    .returning({ id: members.id, email: members.email });
  await db.insert(memberGroupLinks).values(rows.map((row) => ({ tenantId: demo.tenantId, memberId: row.id, memberGroupId: demo.defaultMemberGroupId! })));
  const ids = rows.map((row) => row.id);
  return { emails: rows.map((row) => row.email), firstId: Math.min(...ids), lastId: Math.max(...ids) };
}

/** A year of reservations and settlements of all members, about one credit each, netting to a little usage. */
async function seedLedger(db: Database, tenantId: number, groupId: number, firstId: number, lastId: number): Promise<void> {
  await db.execute(sql`
    insert into credit_ledger (tenant_id, member_group_id, member_id, kind, amount, created_at)
    select ${tenantId}, ${groupId}, ${firstId} + i % ${lastId - firstId + 1},
      (case when i % 2 = 0 then 'reservation' else 'settlement' end)::ledger_kind,
      case when i % 2 = 0 then -1.2 else 1.19 end,
      now() - make_interval(secs => i::double precision * 31536000 / ${LEDGER_ROWS})
    from generate_series(1, ${LEDGER_ROWS}) as i`);
  // The balances, as migration 0003 computes them from a ledger written before it (skipped on code without them).
  if (!existsSync(BACKFILL)) return;
  await db.execute(sql`delete from credit_balances`);
  const statements = readFileSync(BACKFILL, 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter((statement) => /^(--.*\n)*INSERT INTO "credit_balances"/.test(statement));
  for (const statement of statements) await db.execute(sql.raw(statement));
}

async function main(): Promise<void> {
  const upstream = await startFakeLlmUpstream({ chunks: ['ok'], delayMs: 0 }, { port: PORT });
  const handle = await openBenchDatabase(KIND, { poolSize: process.env.BENCH_POOL_SIZE ? envInt('BENCH_POOL_SIZE', 10) : undefined });
  const sender = forkRole(SCRIPT, 'sender');
  try {
    const { db } = handle;
    const config = testConfig({ LLM_BASE_URL: upstream.baseUrl, LLM_API_KEY: 'bench-key', LLM_MODEL: 'fake-model', SIGN_IN_RATE_LIMIT: 1_000_000 });
    await seedDemoTenant(db, { subdomain: config.DEFAULT_TENANT, tenantName: 'Ledger bench', openAiCompatibleModel: 'fake-model' });
    const [demo] = await db.select().from(members).where(eq(members.email, DEMO_MEMBER.email));
    const { emails, firstId, lastId } = await addMembers(db, MEMBERS);
    const app = await buildApp({ db, config });
    await app.listen({ port: PORT + 1, host: '127.0.0.1' });
    const apiBase = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${API_PREFIX}`;
    await nextMessage(sender, 'ready');
    await ask(sender, { type: 'signIn', apiBase, emails });
    const list = (await (await fetch(`${apiBase}/chatbots/?include_default=true`, { headers: { 'x-access-token': await signInDemo(apiBase) } })).json()) as {
      items: { id: number; llm_model: { is_low_llm: boolean } }[];
    };
    const paid = list.items.find((bot) => !bot.llm_model.is_low_llm)!;
    const chatUrl = `${apiBase}/chatbots/${paid.id}/chat/`;

    const measure = async (label: string) => {
      await ask(sender, { type: 'send', chatUrl, count: 10, concurrency: 1 });
      const one = await ask<{ firstBytes: number[]; failed: number }>(sender, { type: 'send', chatUrl, count: SEQUENTIAL_SENDS, concurrency: 1 });
      const many = await ask<{ firstBytes: number[]; failed: number }>(sender, { type: 'send', chatUrl, count: CONCURRENCY, concurrency: CONCURRENCY });
      const line = (name: string, result: { firstBytes: number[]; failed: number }) => {
        const sorted = [...result.firstBytes].sort((a, b) => a - b);
        return `    ${name.padEnd(16)} first byte p50 ${ms(percentile(sorted, 50)).padStart(10)}  p99 ${ms(percentile(sorted, 99)).padStart(10)}${result.failed ? `  (${result.failed} failed)` : ''}`;
      };
      console.log(`  ${label}`);
      console.log(line('1 at a time', one));
      console.log(line(`${CONCURRENCY} at once`, many));
    };

    console.log(`bench:ledger  ${KIND}, ${MEMBERS} members sending, paid model`);
    const before = await countLedger(db);
    await measure(`day one (${before} ledger rows)`);
    const seeding = performance.now();
    await seedLedger(db, demo!.tenantId, demo!.defaultMemberGroupId!, firstId, lastId);
    const after = await countLedger(db);
    console.log(`  (seeded ${LEDGER_ROWS} ledger rows in ${((performance.now() - seeding) / 1000).toFixed(1)} s)`);
    await measure(`after a year (${after} ledger rows)`);
    await app.close();
  } finally {
    sender.kill();
    await handle.close();
    await upstream.close();
  }
}

async function countLedger(db: Database): Promise<number> {
  const [row] = await db.select({ rows: sql<number>`count(*)`.mapWith(Number) }).from(creditLedger);
  return row?.rows ?? 0;
}

async function signInDemo(apiBase: string): Promise<string> {
  const response = await fetch(`${apiBase}/auth/sign-in/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-kind': 'desktop' },
    body: JSON.stringify(DEMO_MEMBER),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

const started = process.argv[2] === 'sender' ? Promise.resolve(senderRole()) : main();
started.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
