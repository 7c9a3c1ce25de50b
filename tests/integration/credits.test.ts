import { readFileSync } from 'node:fs';
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { creditBalances, creditLedger, memberGroupLinks, memberGroups, members, sessionMessages, tenants } from '../../src/server/db/schema';
import { checkSend, openTurn } from '../../src/server/domains/chat/service';
import { creditCheck, grantTenantCredits } from '../../src/server/domains/credits/service';
import { chatBodySchema, chatMetaSchema } from '../../src/shared/api/chat';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_MEMBER, HELD_BY_TEST, type TestServer, startTestServer } from '../fixtures/testServer';
import { sendDeps } from './helpers/sendDeps';
import { apiClient } from './helpers/client';

type MemberRow = typeof members.$inferSelect;

let upstream: FakeLlmUpstream;
let server: TestServer;
let tenant: typeof tenants.$inferSelect;
let groupId: number;
let demo: MemberRow;
let others: MemberRow[];
let chatbotId: number;
let token: string;
/** What one send of SEND_TEXT reserves on the paid chatbot, as stored. */
let perSend: number;

const SEND_TEXT = 'How much does this cost?';

async function member(id: number): Promise<MemberRow> {
  const [row] = await server.db.select().from(members).where(eq(members.id, id));
  return row!;
}

/** Sends straight through the service: decides and reserves, but nothing is streamed or settled. */
async function prepare(who: MemberRow): Promise<'reserved' | 'depleted'> {
  try {
    await openTurn(
      server.db,
      await checkSend(sendDeps(server), tenant, await member(who.id), chatbotId, chatBodySchema.parse({ text: SEND_TEXT })),
      HELD_BY_TEST,
    );
    return 'reserved';
  } catch (error) {
    if ((error as { code?: string }).code === 'credits_depleted') return 'depleted';
    throw error;
  }
}

async function sentMessages(): Promise<number> {
  const rows = await server.db.select({ id: sessionMessages.id }).from(sessionMessages).where(eq(sessionMessages.text, SEND_TEXT));
  return rows.length;
}

const count = (outcomes: string[], wanted: string) => outcomes.filter((outcome) => outcome === wanted).length;

/**
 * A send reserves at most what is left, so sends one after another spend a limit to exactly 0;
 * concurrent ones read the remainder before each other's reservations land and may overshoot it,
 * together by less than one reservation (DESIGN §7).
 */
function expectSpentWithinOneReservation(remaining: number | null | undefined): void {
  expect(remaining).toBeLessThanOrEqual(1e-6);
  expect(remaining).toBeGreaterThan(-perSend);
}

/** The ledger summed the way the balance rows promise to hold it. */
async function ledgerSums() {
  const period = sql<string>`to_char(${creditLedger.createdAt}, 'YYYY-MM')`;
  const usage = sql<number>`sum(${creditLedger.amount})`.mapWith(Number);
  const byMember = await server.db
    .select({ id: creditLedger.memberId, period, usage })
    .from(creditLedger)
    .where(and(ne(creditLedger.kind, 'grant'), isNotNull(creditLedger.memberId)))
    .groupBy(creditLedger.memberId, period);
  const byGroup = await server.db
    .select({ id: creditLedger.memberGroupId, period, usage })
    .from(creditLedger)
    .where(and(ne(creditLedger.kind, 'grant'), isNotNull(creditLedger.memberGroupId)))
    .groupBy(creditLedger.memberGroupId, period);
  const tenantGrant = sql`${creditLedger.kind} = 'grant' and ${creditLedger.memberId} is null and ${creditLedger.memberGroupId} is null`;
  const byTenant = await server.db
    .select({
      id: creditLedger.tenantId,
      usage: sql<number>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} <> 'grant'), 0)`.mapWith(Number),
      grants: sql<number>`coalesce(sum(${creditLedger.amount}) filter (where ${tenantGrant}), 0)`.mapWith(Number),
      grantCount: sql<number>`count(*) filter (where ${tenantGrant})`.mapWith(Number),
    })
    .from(creditLedger)
    .groupBy(creditLedger.tenantId);
  return [
    ...byMember.map((row) => ({ scopeKind: 'member', scopeId: row.id, period: row.period, usageSum: row.usage, grantSum: 0, grantCount: 0 })),
    ...byGroup.map((row) => ({ scopeKind: 'group', scopeId: row.id, period: row.period, usageSum: row.usage, grantSum: 0, grantCount: 0 })),
    ...byTenant.map((row) => ({ scopeKind: 'tenant', scopeId: row.id, period: 'all', usageSum: row.usage, grantSum: row.grants, grantCount: row.grantCount })),
  ];
}

async function balances() {
  return server.db
    .select({
      scopeKind: creditBalances.scopeKind,
      scopeId: creditBalances.scopeId,
      period: creditBalances.period,
      usageSum: creditBalances.usageSum,
      grantSum: creditBalances.grantSum,
      grantCount: creditBalances.grantCount,
    })
    .from(creditBalances);
}

const byKey = <T extends { scopeKind: string; scopeId: number | null; period: string }>(rows: T[]) =>
  [...rows].sort((a, b) => `${a.scopeKind}:${a.scopeId}:${a.period}`.localeCompare(`${b.scopeKind}:${b.scopeId}:${b.period}`));

/** Rows whose usage nets to zero may exist on one side only (e.g. a month of fully released reservations). */
const nonZero = <T extends { usageSum: number; grantCount: number }>(rows: T[]) => rows.filter((row) => row.usageSum !== 0 || row.grantCount !== 0);

async function expectBalancesToEqualLedger(): Promise<void> {
  expect(byKey(nonZero(await balances()))).toEqual(byKey(nonZero(await ledgerSums())));
}

beforeAll(async () => {
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({ llm: { baseUrl: upstream.baseUrl } });
  [tenant] = (await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'))) as [typeof tenants.$inferSelect];
  [demo] = (await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email))) as [MemberRow];
  groupId = demo.defaultMemberGroupId!;
  others = await server.db
    .insert(members)
    .values(
      Array.from({ length: 9 }, (_, i) => ({
        ...demo,
        id: undefined,
        email: `ledger-${i}@demo.test`,
        name: `Ledger member ${i}`,
        createdAt: undefined,
        updatedAt: undefined,
      })),
    )
    .returning();
  await server.db.insert(memberGroupLinks).values(others.map((row) => ({ tenantId: tenant.id, memberId: row.id, memberGroupId: groupId })));

  const api = apiClient(server);
  token = (await api.signIn(DEMO_MEMBER)).access_token;
  const list = await api.call('/chatbots/?include_default=true', { token });
  chatbotId = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;

  const turn = await openTurn(server.db, await checkSend(sendDeps(server), tenant, demo, chatbotId, chatBodySchema.parse({ text: SEND_TEXT })), HELD_BY_TEST);
  perSend = turn.reservation!.amount;
  expect(perSend).toBeGreaterThan(1);
});
afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe('credit balances', () => {
  it('let only as many concurrent sends through as the group quota allows, whoever sends', async () => {
    const [group] = await server.db
      .select()
      .from(creditBalances)
      .where(and(eq(creditBalances.scopeKind, 'group'), eq(creditBalances.scopeId, groupId)));
    const groupUsed = -group!.usageSum;
    // Room for 3.5 sends: a send goes through while something is left (the fourth with a shorter answer), so 4 do.
    await server.db
      .update(memberGroups)
      .set({ creditQuota: groupUsed + 3.5 * perSend })
      .where(eq(memberGroups.id, groupId));
    try {
      const senders = [demo, ...others].flatMap((who) => [who, who, who]);
      const messagesBefore = await sentMessages();
      const outcomes = await Promise.all(senders.map((who) => prepare(who)));
      expect(count(outcomes, 'reserved')).toBe(4);
      expect(count(outcomes, 'depleted')).toBe(26);
      // A refused send leaves no message behind, and its reservation is released in full.
      expect((await sentMessages()) - messagesBefore).toBe(4);
      expectSpentWithinOneReservation((await creditCheck(server.db, demo)).remaining_credit);
    } finally {
      await server.db.update(memberGroups).set({ creditQuota: null }).where(eq(memberGroups.id, groupId));
    }
    await expectBalancesToEqualLedger();
  });

  it('hold one member to their own quota while the other members keep sending', async () => {
    const [limited, ...rest] = others as [MemberRow, ...MemberRow[]];
    const used = -((await creditCheck(server.db, limited)).remaining_credit! - 5000);
    await server.db
      .update(members)
      .set({ creditQuota: used + 1.5 * perSend })
      .where(eq(members.id, limited.id));
    const senders = [...Array.from({ length: 6 }, () => limited), ...rest.slice(0, 6)];
    const outcomes = await Promise.all(senders.map(async (who) => ({ who: who.id, outcome: await prepare(who) })));
    expect(outcomes.filter((o) => o.who === limited.id && o.outcome === 'reserved')).toHaveLength(2);
    expect(outcomes.filter((o) => o.who !== limited.id).every((o) => o.outcome === 'reserved')).toBe(true);
    expectSpentWithinOneReservation((await creditCheck(server.db, await member(limited.id))).remaining_credit);
    await expectBalancesToEqualLedger();
  });

  it('stop the whole tenant at its grants', async () => {
    const remaining = (await creditCheck(server.db, demo)).tenant.remaining_credit!;
    await grantTenantCredits(server.db, tenant.id, 2.5 * perSend - remaining, { koName: '조정', enName: 'Adjustment' });
    expect((await creditCheck(server.db, demo)).tenant.remaining_credit).toBeCloseTo(2.5 * perSend, 6);
    const outcomes = await Promise.all(others.slice(1).flatMap((who) => [prepare(who), prepare(who)]));
    expect(count(outcomes, 'reserved')).toBe(3);
    expectSpentWithinOneReservation((await creditCheck(server.db, demo)).tenant.remaining_credit);
    await grantTenantCredits(server.db, tenant.id, 100_000, { koName: '충전', enName: 'Top-up' });
    await expectBalancesToEqualLedger();
  });

  it('follow settlements, stopped answers and answers swept when a server starts', async () => {
    upstream.setBehaviour({ chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 30 });
    const send = (signal?: AbortSignal) =>
      fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': token },
        body: JSON.stringify({ text: SEND_TEXT }),
        signal,
      });
    const finished = await send();
    await finished.text();
    // The live answer streams for a minute: it is still streaming when it is stopped below, after a
    // restart that can take seconds on a loaded machine (a short one could end first, unstopped).
    upstream.setBehaviour({ chunks: Array.from({ length: 2000 }, (_, i) => `w${i} `), delayMs: 30 });
    const stop = new AbortController();
    const live = await send(stop.signal);
    const liveMeta = chatMetaSchema.parse(JSON.parse(live.headers.get('x-chat-meta')!));
    // The turns prepared above were never streamed: as if their process had died, their leases run
    // out, and a server starting saves them, settling each for its estimated input.
    await server.db
      .update(sessionMessages)
      .set({ leaseExpiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(sessionMessages.streaming, true), eq(sessionMessages.streamOwner, HELD_BY_TEST.owner)));
    const before = await creditCheck(server.db, demo);
    const restarted = await buildApp({ db: server.db, config: server.config });
    await restarted.close();
    expect((await creditCheck(server.db, demo)).remaining_credit!).toBeGreaterThan(before.remaining_credit!);
    expect(
      await server.db
        .select()
        .from(sessionMessages)
        .where(and(eq(sessionMessages.streaming, true), eq(sessionMessages.streamOwner, HELD_BY_TEST.owner))),
    ).toEqual([]);
    await expectBalancesToEqualLedger();

    stop.abort();
    const liveAnswer = async () => (await server.db.select().from(sessionMessages).where(eq(sessionMessages.id, liveMeta.chatbot_message_id)))[0]!;
    for (let attempt = 0; attempt < 400 && (await liveAnswer()).interrupted !== 'stopped'; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    // The live answer kept its lease through the restart and was saved by its own process.
    expect(await liveAnswer()).toMatchObject({ streaming: false, interrupted: 'stopped' });
    await expectBalancesToEqualLedger();
  });

  it('release the reservation of an answer deleted with its session while it streamed', async () => {
    upstream.setBehaviour({ chunks: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 30 });
    const before = await creditCheck(server.db, demo);
    const live = await fetch(`${server.apiBase}/chatbots/${chatbotId}/chat/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': token },
      body: JSON.stringify({ text: SEND_TEXT }),
    });
    const meta = chatMetaSchema.parse(JSON.parse(live.headers.get('x-chat-meta')!));
    expect((await creditCheck(server.db, demo)).remaining_credit).toBeLessThan(before.remaining_credit!);
    const deleted = await fetch(`${server.apiBase}/sessions/${meta.session_hash_id}/`, { method: 'DELETE', headers: { 'x-access-token': token } });
    expect(deleted.status).toBe(200);
    await live.text();
    // Neither the answer's own save nor the sweep of abandoned answers can settle it now: the sweep releases it.
    await server.app.sweepAbandonedAnswers();
    expect((await creditCheck(server.db, demo)).remaining_credit).toBeCloseTo(before.remaining_credit!, 6);
    await expectBalancesToEqualLedger();
  });

  it('are rebuilt exactly from the ledger by the migration backfill', async () => {
    const kept = byKey(await balances());
    const migration = readFileSync(new URL('../../src/server/db/migrations/0003_credit_balances.sql', import.meta.url), 'utf8');
    const backfill = migration
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter((statement) => /^(--.*\n)*INSERT INTO "credit_balances"/.test(statement));
    expect(backfill).toHaveLength(3);
    await server.db.delete(creditBalances);
    for (const statement of backfill) await server.db.execute(sql.raw(statement));
    const rebuilt = byKey(await balances());
    expect(nonZero(rebuilt)).toEqual(nonZero(kept));
  });
});
