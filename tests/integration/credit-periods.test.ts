import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../src/server/clock';
import { backgroundTasks, creditBalances, creditLedger, memberGroupLinks, members, memberships, tenants } from '../../src/server/db/schema';
import { checkSend, openTurn } from '../../src/server/domains/chat/service';
import { renewTenantPeriod, tenantsDue } from '../../src/server/domains/credits/periods';
import { creditCheck, grantTenantCredits } from '../../src/server/domains/credits/service';
import { chatBodySchema } from '../../src/shared/api/chat';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import { DEMO_ADMIN, DEMO_MEMBER, HELD_BY_TEST, type TestServer, startTestServer } from '../fixtures/testServer';
import { sendDeps } from './helpers/sendDeps';
import { apiClient } from './helpers/client';

type MemberRow = typeof members.$inferSelect;

let upstream: FakeLlmUpstream;
let server: TestServer;
let client: ReturnType<typeof apiClient>;
let tenant: typeof tenants.$inferSelect;
let demo: MemberRow;
let chatbotId: number;
let memberToken: string;
let adminToken: string;

/** The controllable clock: every ledger row, balance period and job reads it. */
let now = new Date('2031-01-15T12:00:00Z');
const moveClockTo = (iso: string) => {
  now = new Date(iso);
};

async function member(id: number): Promise<MemberRow> {
  const [row] = await server.db.select().from(members).where(eq(members.id, id));
  return row!;
}

/** Decides and reserves a send as the chat route does (no streaming, no settlement). */
async function reserveSend(who: MemberRow): Promise<'reserved' | 'depleted'> {
  try {
    const turn = await openTurn(
      server.db,
      await checkSend(sendDeps(server), tenant, await member(who.id), chatbotId, chatBodySchema.parse({ text: 'Period test' })),
      HELD_BY_TEST,
    );
    return turn.reservation ? 'reserved' : 'depleted';
  } catch (error) {
    if ((error as { code?: string }).code === 'credits_depleted') return 'depleted';
    throw error;
  }
}

/** Runs the due credit period jobs through the queue and waits until their tasks are settled. */
async function runDueJobs(): Promise<number> {
  const taskIds = await server.app.creditPeriods.enqueueDue();
  for (let attempt = 0; attempt < 200; attempt++) {
    const rows = taskIds.length
      ? await server.db.select({ status: backgroundTasks.status }).from(backgroundTasks).where(inArray(backgroundTasks.id, taskIds))
      : [];
    if (rows.every((row) => row.status !== 'running')) {
      expect(rows.every((row) => row.status === 'completed')).toBe(true);
      return taskIds.length;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('credit period jobs did not finish');
}

/** Balance rows against the ledger summed by the month of each row's created_at (the clock's). */
async function expectBalancesToEqualLedger(): Promise<void> {
  const period = sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  const usage = sql<number>`sum(${creditLedger.amount})`.mapWith(Number);
  const byMember = await server.db
    .select({ id: creditLedger.memberId, period, usage })
    .from(creditLedger)
    .where(and(ne(creditLedger.kind, 'grant'), isNotNull(creditLedger.memberId)))
    .groupBy(creditLedger.memberId, period);
  const tenantRow = (
    await server.db
      .select({
        usage: sql<number>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} <> 'grant'), 0)`.mapWith(Number),
        grants: sql<number>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} = 'grant'), 0)`.mapWith(Number),
      })
      .from(creditLedger)
      .where(eq(creditLedger.tenantId, tenant.id))
  )[0]!;
  const stored = await server.db.select().from(creditBalances).where(eq(creditBalances.tenantId, tenant.id));
  for (const row of byMember.filter((entry) => entry.usage !== 0)) {
    const balance = stored.find((b) => b.scopeKind === 'member' && b.scopeId === row.id && b.period === row.period);
    expect(balance?.usageSum).toBeCloseTo(row.usage, 6);
  }
  const pool = stored.find((b) => b.scopeKind === 'tenant' && b.period === 'all')!;
  expect(pool.usageSum).toBeCloseTo(tenantRow.usage, 6);
  expect(pool.grantSum).toBeCloseTo(tenantRow.grants, 6);
}

const poolRemaining = async () => (await creditCheck(server.db, await member(demo.id))).tenant.remaining_credit!;

beforeAll(async () => {
  setClock(() => now);
  upstream = await startFakeLlmUpstream();
  server = await startTestServer({ llm: { baseUrl: upstream.baseUrl } });
  client = apiClient(server);
  [tenant] = (await server.db.select().from(tenants).where(eq(tenants.subdomain, 'demo'))) as [typeof tenants.$inferSelect];
  [demo] = (await server.db.select().from(members).where(eq(members.email, DEMO_MEMBER.email))) as [MemberRow];
  memberToken = (await client.signIn(DEMO_MEMBER)).access_token;
  adminToken = (await client.signIn(DEMO_ADMIN)).access_token;
  const list = await client.call('/chatbots/?include_default=true', { token: memberToken });
  chatbotId = list.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id;
});
afterAll(async () => {
  setClock(null);
  await server?.close();
  await upstream?.close();
});

describe('credit periods', () => {
  it("grant the plan's monthly credit once per month, by a job", async () => {
    const before = await poolRemaining();
    expect(await tenantsDue(server.db)).toContain(tenant.id);
    expect(await runDueJobs()).toBeGreaterThanOrEqual(1);
    const [grant] = await server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.tenantId, tenant.id), eq(creditLedger.planPeriod, '2031-01')));
    expect(grant).toMatchObject({ kind: 'grant', amount: 100_000, usageStartDate: '2031-01-01', usageEndDate: '2031-01-31', enName: 'Team monthly credits' });
    expect(await poolRemaining()).toBeCloseTo(before + 100_000, 6);
    // Nothing is due any more this month, and running the job again changes nothing.
    expect(await tenantsDue(server.db)).not.toContain(tenant.id);
    expect(await renewTenantPeriod(server.db, tenant.id)).toEqual({ expired: 0, granted: false });
    expect(await poolRemaining()).toBeCloseTo(before + 100_000, 6);
  });

  it('start the monthly quotas again in a new month and take back the unused rest of lapsed grants', async () => {
    await grantTenantCredits(server.db, tenant.id, 1_000, {
      koName: '추가 크레딧',
      enName: 'Extra credits',
      usageStartDate: '2031-01-15',
      usageEndDate: '2031-02-10',
      transactionPrice: 50_000,
      transactionCurrency: 'KRW',
      receiptUrl: 'https://receipts.example/1',
    });
    const quotaBefore = (await creditCheck(server.db, demo)).remaining_credit!;
    expect(await reserveSend(demo)).toBe('reserved');
    expect(await reserveSend(demo)).toBe('reserved');
    const januaryQuota = (await creditCheck(server.db, demo)).remaining_credit!;
    const spent = quotaBefore - januaryQuota;
    expect(spent).toBeGreaterThan(0);
    const remainingInJanuary = await poolRemaining();

    moveClockTo('2031-02-01T00:00:05Z');
    // The member's monthly quota is whole again: February's balance rows start empty.
    expect((await creditCheck(server.db, await member(demo.id))).remaining_credit!).toBeGreaterThan(januaryQuota);
    expect(await runDueJobs()).toBeGreaterThanOrEqual(1);
    const [expiry] = await server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.tenantId, tenant.id), isNotNull(creditLedger.expiresGrantId)));
    // Grants are used up in the order they lapse: January's plan credit lapsed first, so it carried
    // all of the usage since it was granted and only its rest is taken back.
    const januaryUsage = 100_000 - -expiry!.amount;
    expect(januaryUsage).toBeGreaterThan(spent - 1e-6);
    expect(await poolRemaining()).toBeCloseTo(remainingInJanuary - (100_000 - januaryUsage) + 100_000, 6);

    const entries = (await client.call('/credits/', { token: memberToken })).body;
    expect(entries.page_size).toBe(10);
    const january = entries.items.find((entry: { usage_end_date: string | null }) => entry.usage_end_date === '2031-01-31');
    expect(january).toMatchObject({ quota: 100_000, usage: Math.floor(januaryUsage), expired: true, transaction: null });
    const extra = entries.items.find((entry: { en_name: string }) => entry.en_name === 'Extra credits');
    // Members see no prices; administrators see the purchase.
    expect(extra).toMatchObject({ quota: 1_000, usage: 0, expired: false, transaction: null });
    const adminView = (await client.call('/credits/?size=50', { token: adminToken })).body;
    expect(adminView.items.find((entry: { en_name: string }) => entry.en_name === 'Extra credits').transaction).toMatchObject({
      price: 50_000,
      currency: 'KRW',
      receipt_url: 'https://receipts.example/1',
    });
    expect((await client.call('/credits/')).status).toBe(401);
    expect((await client.call('/credits/?size=0', { token: memberToken })).status).toBe(400);
    await expectBalancesToEqualLedger();
  });

  it('keep the ledger exact when sends run across the reset', async () => {
    moveClockTo('2031-02-28T23:59:59Z');
    const others = await server.db
      .insert(members)
      .values(
        Array.from({ length: 6 }, (_, i) => ({
          ...demo,
          id: undefined,
          email: `period-${i}@demo.test`,
          name: `Period member ${i}`,
          createdAt: undefined,
          updatedAt: undefined,
        })),
      )
      .returning();
    await server.db
      .insert(memberGroupLinks)
      .values(others.map((row) => ({ tenantId: tenant.id, memberId: row.id, memberGroupId: demo.defaultMemberGroupId! })));
    const beforeReset = others.flatMap((who) => [reserveSend(who), reserveSend(who)]);
    moveClockTo('2031-03-01T00:00:01Z');
    const [renewal, ...afterReset] = await Promise.all([renewTenantPeriod(server.db, tenant.id), ...others.map((who) => reserveSend(who)), ...beforeReset]);
    expect(renewal.granted).toBe(true);
    // The purchase lapsed on 2031-02-10 and February's plan credit on the 28th: both expired.
    expect(renewal.expired).toBe(2);
    expect(afterReset.every((outcome) => outcome === 'reserved')).toBe(true);
    expect(await tenantsDue(server.db)).not.toContain(tenant.id);
    await expectBalancesToEqualLedger();
    // Every reservation counts in exactly one month, the one of its row's clock.
    const reservations = await server.db
      .select({ period: sql<string>`to_char(${creditLedger.createdAt} at time zone 'UTC', 'YYYY-MM')`, n: sql<number>`count(*)::int` })
      .from(creditLedger)
      .where(
        and(
          eq(creditLedger.kind, 'reservation'),
          inArray(
            creditLedger.memberId,
            others.map((who) => who.id),
          ),
        ),
      )
      .groupBy(sql`1`);
    expect(reservations.reduce((sum, row) => sum + row.n, 0)).toBe(18);
    expect(reservations.every((row) => row.period === '2031-02' || row.period === '2031-03')).toBe(true);
  });

  it('leave a tenant that pays through a membership to its payments: no monthly grant besides them', async () => {
    moveClockTo('2031-04-02T08:00:00Z');
    const [membership] = await server.db
      .insert(memberships)
      .values({ tenantId: tenant.id, memberId: null, planId: tenant.planId!, price: 99_000, status: 'active' })
      .returning();
    try {
      // March's plan credit lapsed and is taken back; April's is not granted.
      expect(await renewTenantPeriod(server.db, tenant.id)).toEqual({ expired: 1, granted: false });
      expect(
        await server.db
          .select()
          .from(creditLedger)
          .where(and(eq(creditLedger.tenantId, tenant.id), eq(creditLedger.planPeriod, '2031-04'))),
      ).toEqual([]);
      expect(await tenantsDue(server.db)).not.toContain(tenant.id);
      // Once the membership has ended, the plan the tenant keeps is granted monthly again.
      await server.db.update(memberships).set({ status: 'ended' }).where(eq(memberships.id, membership!.id));
      expect(await tenantsDue(server.db)).toContain(tenant.id);
    } finally {
      await server.db.delete(memberships).where(eq(memberships.id, membership!.id));
    }
  });
});
