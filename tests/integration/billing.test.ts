import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, backgroundTasks, creditLedger, members, memberships, paymentMethods, payments, plans, tenants } from '../../src/server/db/schema';
import { addDays, addMonth, isoDay } from '../../src/server/domains/billing/membership';
import { type FakePortOne, startFakePortOne } from '../fixtures/fakePortOne';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { fastJobSettings } from './helpers/crashJobs';
import { apiClient } from './helpers/client';

const APPROVED = '4242 4242 4242 4242';
const DECLINED = '4000 0000 0000 0002';
const demoCard = (card_number: string) => ({ provider: 'demo', card_number, expiry: '12/34', cvc: '123' });

/** A clock the test moves; every server here goes by it. */
function testClock(start: string) {
  let now = new Date(start);
  return { now: () => now, set: (at: Date | string) => (now = new Date(at)) };
}

async function waitForTasks(server: TestServer, taskIds: number[]) {
  if (taskIds.length === 0) return;
  for (;;) {
    const rows = await server.db.select().from(backgroundTasks).where(inArray(backgroundTasks.id, taskIds));
    if (rows.every((row) => row.status !== 'running')) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function sweep(server: TestServer) {
  return waitForTasks(server, await server.app.sweepRenewals());
}

const planIds = async (server: TestServer, subdomain = 'demo') => {
  const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, subdomain));
  const rows = await server.db.select().from(plans).where(eq(plans.tenantId, tenant!.id));
  const byName = (name: string) => rows.find((row) => row.enName === name)!.id;
  return { tenant: tenant!, starter: byName('Starter'), team: byName('Team'), business: byName('Business') };
};

describe('plans, membership and payments (demo provider)', () => {
  const clock = testClock('2030-01-31T09:00:00Z');
  let sink: SmtpSink;
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let member: string;
  let acmeAdmin: string;
  let soloMember: string;
  let ids: Awaited<ReturnType<typeof planIds>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({
      extraTenants: ['acme', 'solo'],
      clock: clock.now,
      config: { SMTP_URL: sink.url, BILLING_RENEWAL_SWEEP_SECONDS: 0, ...fastJobSettings },
    });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    member = (await client.signIn(DEMO_MEMBER)).access_token;
    acmeAdmin = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    const solo = await planIds(server, 'solo');
    await server.db
      .update(members)
      .set({ memberType: 'individual' })
      .where(and(eq(members.tenantId, solo.tenant.id), eq(members.email, DEMO_MEMBER.email)));
    soloMember = (await client.signIn(DEMO_MEMBER, 'solo')).access_token;
    ids = await planIds(server);
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  /** The tenant a token belongs to, sent with it as the clients do. */
  const tenantOf = (token: string) => (token === acmeAdmin ? 'acme' : token === soloMember ? 'solo' : undefined);
  const register = (planId: number, body: unknown, token = admin, query = '') =>
    client.call(`/member-billing-plans/${planId}/${query}`, { method: 'POST', token, body, tenant: tenantOf(token) });
  const subscribe = (planId: number, body: unknown = {}, token = admin) =>
    client.call(`/member-billing-plans/${planId}/subscribe/`, { method: 'POST', token, body, tenant: tenantOf(token) });
  const membership = async (token = admin) => (await client.call('/membership/', { token })).body;
  const history = async (token = admin) => (await client.call('/membership/payments/', { token })).body;
  const tenantGrants = async () =>
    server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.tenantId, ids.tenant.id), eq(creditLedger.kind, 'grant')));

  it('lists the plans by price with the provider the client pays through; 401 without a token', async () => {
    const { status, body } = await client.call('/member-billing-plans/', { token: member });
    expect(status).toBe(200);
    expect(body.items.map((plan: { en_name: string }) => plan.en_name)).toEqual(['Starter', 'Team', 'Business']);
    expect(body.items[0]).toEqual({ id: ids.starter, ko_name: '스타터', en_name: 'Starter', krw_month_price: 29_000, credit: 20_000 });
    expect(body.provider).toEqual({ name: 'demo' });
    expect((await client.call('/member-billing-plans/')).status).toBe(401);
    expect((await client.call('/membership/')).status).toBe(401);
  });

  it("shows an organisation member the tenant's plan and refuses them every paying endpoint (403)", async () => {
    expect(await membership(member)).toEqual({
      scope: 'tenant',
      can_manage: false,
      current_plan: expect.objectContaining({ en_name: 'Team' }),
      membership: null,
      payment_methods: [],
    });
    for (const call of [
      () => register(ids.starter, demoCard(APPROVED), member),
      () => subscribe(ids.starter, {}, member),
      () => client.call('/membership/cancel/', { method: 'POST', token: member }),
      () => client.call('/membership/resume/', { method: 'POST', token: member }),
      () => client.call('/membership/payments/', { token: member }),
    ]) {
      expect(await call()).toMatchObject({ status: 403, body: { code: 'billing_admin_only' } });
    }
  });

  it('declines the decline test card (402) and refuses malformed cards (400) without storing anything', async () => {
    expect(await register(ids.starter, demoCard(DECLINED))).toMatchObject({ status: 402, body: { code: 'card_declined' } });
    expect(await register(ids.starter, demoCard('1234'))).toMatchObject({ status: 400 });
    expect(await register(ids.starter, { ...demoCard(APPROVED), expiry: '13/30' })).toMatchObject({ status: 400 });
    expect(await register(ids.starter, { provider: 'portone', billing_key: 'x' })).toMatchObject({ status: 400, body: { code: 'invalid_payment_result' } });
    expect((await membership()).membership).toBeNull();
    expect(await server.db.select().from(paymentMethods)).toEqual([]);
    // Another tenant's plan is not found.
    const acme = await planIds(server, 'acme');
    expect((await register(acme.starter, demoCard(APPROVED))).status).toBe(404);
    expect((await subscribe(9_999_999)).status).toBe(404);
  });

  it('subscribes an administrator with the test card: the tenant gets the plan, its credits and a receipt; no card number is stored', async () => {
    const before = (await tenantGrants()).length;
    const { status, body } = await register(ids.starter, demoCard(APPROVED));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      scope: 'tenant',
      can_manage: true,
      current_plan: { en_name: 'Starter' },
      membership: {
        plan: { id: ids.starter },
        next_plan: null,
        status: 'active',
        price: 29_000,
        currency: 'KRW',
        // 31 January + 1 month: the last day of February.
        next_payment_date: '2030-02-28',
        payment_method: { card_name: 'Visa', card_number: '**** **** **** 4242', type: 'card' },
        failed_attempts: 0,
      },
    });
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.id, ids.tenant.id));
    expect(tenant!.planId).toBe(ids.starter);
    const grants = await tenantGrants();
    expect(grants).toHaveLength(before + 1);
    expect(grants.at(-1)).toMatchObject({
      memberId: null,
      amount: 20_000,
      usageStartDate: '2030-01-31',
      usageEndDate: '2030-02-28',
      transactionPrice: 29_000,
      transactionCurrency: 'KRW',
    });

    // Card numbers never reach the database: only a masked number and the provider's billing key.
    const stored = JSON.stringify([
      await server.db.select().from(paymentMethods),
      await server.db.select().from(payments),
      await server.db.select().from(memberships),
    ]);
    expect(stored).not.toContain('4242424242424242');
    expect(stored).not.toContain('4242 4242 4242 4242');
    const [method] = await server.db.select().from(paymentMethods);
    expect(method!.billingKey).toMatch(/^demo_bk_/);

    const list = await history();
    // The card declined at registration never reached a charge: one payment, linking its receipt.
    expect(list).toMatchObject({ total_items: 1, page: 1, page_size: 10 });
    const paid = list.items[0];
    expect(paid).toMatchObject({
      kind: 'subscribe',
      status: 'paid',
      price: 29_000,
      credit: 20_000,
      usage_start_date: '2030-01-31',
      usage_end_date: '2030-02-28',
      plan: { en_name: 'Starter' },
    });
    const receipt = await fetch(paid.receipt_url.replace(/^https?:\/\/[^/]+/, server.url));
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toContain('text/html');
    expect(await receipt.text()).toContain('29,000');
    expect((await fetch(`${server.url}/api/v1/receipts/not-a-real-token-at-all/`)).status).toBe(404);
  });

  it('refuses the plan already held (409); upgrades at once with a new period; downgrades at the next payment date', async () => {
    expect(await subscribe(ids.starter)).toMatchObject({ status: 409, body: { code: 'already_subscribed' } });

    const upgraded = await subscribe(ids.team);
    expect(upgraded).toMatchObject({ status: 200, body: { membership: { plan: { id: ids.team }, price: 99_000, next_payment_date: '2030-02-28' } } });
    expect((await history()).items[0]).toMatchObject({ kind: 'upgrade', status: 'paid', price: 99_000, credit: 100_000 });
    expect((await tenantGrants()).at(-1)).toMatchObject({ amount: 100_000 });

    const downgraded = await subscribe(ids.starter);
    expect(downgraded.body.membership).toMatchObject({ plan: { id: ids.team }, next_plan: { id: ids.starter }, price: 99_000 });
    expect((await history()).total_items).toBe(2);
    // Choosing the current plan again takes the pending change back.
    expect((await subscribe(ids.team)).body.membership.next_plan).toBeNull();
    expect((await subscribe(ids.starter)).body.membership.next_plan).toMatchObject({ id: ids.starter });
  });

  it('cancels (ends at the next payment date) and resumes; each twice is 409', async () => {
    const cancelled = await client.call('/membership/cancel/', { method: 'POST', token: admin });
    expect(cancelled).toMatchObject({ status: 200, body: { membership: { status: 'cancelled', next_payment_date: '2030-02-28', next_plan: null } } });
    expect(await client.call('/membership/cancel/', { method: 'POST', token: admin })).toMatchObject({ status: 409, body: { code: 'already_cancelled' } });
    const resumed = await client.call('/membership/resume/', { method: 'POST', token: admin });
    expect(resumed).toMatchObject({ status: 200, body: { membership: { status: 'active' } } });
    expect(await client.call('/membership/resume/', { method: 'POST', token: admin })).toMatchObject({ status: 409, body: { code: 'not_cancelled' } });
    expect((await client.call('/membership/cancel/', { method: 'POST', token: acmeAdmin, tenant: 'acme' })).status).toBe(404);
    // The organisation's membership is an administrator's write: audited (closest action, target `membership`).
    const audits = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, ids.tenant.id), eq(auditLog.targetType, 'membership')));
    expect(audits.map((row) => Object.keys(row.changes)[0])).toEqual([
      'subscribe',
      'upgrade',
      'next_plan_id',
      'next_plan_id',
      'next_plan_id',
      'status',
      'status',
    ]);
    expect(audits.at(-1)).toMatchObject({
      action: 'membership.update',
      actorEmail: DEMO_ADMIN.email,
      changes: { status: { from: 'cancelled', to: 'active' } },
    });
  });

  it('renews on the payment date through the job: the pending plan takes over, its credits are granted, nothing happens before', async () => {
    await subscribe(ids.starter);
    clock.set('2030-02-27T23:00:00Z');
    expect(await server.app.sweepRenewals()).toEqual([]);
    clock.set('2030-02-28T00:30:00Z');
    const before = (await tenantGrants()).length;
    const tasks = await sweep(server);
    expect(tasks!.map((task) => task.status)).toEqual(['completed']);
    expect((await membership()).membership).toMatchObject({
      plan: { id: ids.starter },
      next_plan: null,
      price: 29_000,
      status: 'active',
      next_payment_date: '2030-03-28',
    });
    expect((await history()).items[0]).toMatchObject({
      kind: 'renewal',
      status: 'paid',
      price: 29_000,
      usage_start_date: '2030-02-28',
      usage_end_date: '2030-03-28',
    });
    expect((await tenantGrants()).length).toBe(before + 1);
    // Swept again the same day: not due any more, no second charge.
    expect(await sweep(server)).toBeUndefined();
    expect((await tenantGrants()).length).toBe(before + 1);
  });

  it('a cancelled membership ends at the payment date (mailed to the administrators) and can be subscribed again with the registered card', async () => {
    await client.call('/membership/cancel/', { method: 'POST', token: admin });
    const mailsBefore = sink.received.length;
    clock.set('2030-03-28T01:00:00Z');
    await sweep(server);
    const view = await membership();
    expect(view.membership).toBeNull();
    expect(view.payment_methods).toHaveLength(1);
    expect((await history()).items[0].kind).toBe('renewal');
    const [ended] = await sink.mailsAfter(mailsBefore, 1, DEMO_ADMIN.email);
    expect(ended!.parsed.subject).toContain('Starter');
    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.id, ids.tenant.id));
    expect(tenant!.planStatus).toBe('inactive');

    expect(await subscribe(ids.business, { payment_method_id: 9_999_999 })).toMatchObject({ status: 404 });
    const again = await subscribe(ids.business, { payment_method_id: view.payment_methods[0].id });
    expect(again).toMatchObject({ status: 200, body: { membership: { plan: { id: ids.business }, status: 'active', next_payment_date: '2030-04-28' } } });
  });

  it('an individual pays for their own plan: their monthly quota becomes the plan credit', async () => {
    const solo = await planIds(server, 'solo');
    expect(await subscribe(solo.starter, {}, soloMember)).toMatchObject({ status: 422, body: { code: 'payment_method_required' } });
    const { status, body } = await register(solo.team, demoCard('5555 5555 5555 4444'), soloMember);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      scope: 'member',
      can_manage: true,
      membership: { plan: { id: solo.team }, payment_method: { card_name: 'Mastercard', card_number: '**** **** **** 4444' } },
    });
    const [row] = await server.db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, solo.tenant.id), eq(members.email, DEMO_MEMBER.email)));
    expect(row!.creditQuota).toBe(100_000);
    const [grant] = await server.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.tenantId, solo.tenant.id), eq(creditLedger.memberId, row!.id)));
    expect(grant).toMatchObject({ kind: 'grant', amount: 100_000, transactionPrice: 99_000 });
    // Their credits page lists their own purchase with its receipt, not the tenant pool's grants.
    const entries = (await client.call('/credits/', { token: soloMember, tenant: 'solo' })).body;
    expect(entries.items).toEqual([
      expect.objectContaining({ id: grant!.id, quota: 100_000, usage: 0, transaction: expect.objectContaining({ price: 99_000, currency: 'KRW' }) }),
    ]);
    // The organisation's own membership in that tenant is untouched.
    expect((await client.call('/membership/payments/', { token: soloMember, tenant: 'solo' })).body.total_items).toBe(1);

    // While one charge of theirs is pending (a second click, another tab), another is refused: 409, nothing charged.
    const [pending] = await server.db
      .insert(payments)
      .values({
        tenantId: solo.tenant.id,
        membershipId: (await server.db.select().from(memberships).where(eq(memberships.memberId, row!.id)))[0]!.id,
        memberId: row!.id,
        planId: solo.team,
        kind: 'upgrade',
        amount: 1,
        credit: 1,
        provider: 'demo',
        orderId: `in-flight-${Date.now()}`,
        ownerKey: `member:${row!.id}`,
      })
      .returning();
    const paymentsBefore = (await server.db.select().from(payments)).length;
    expect(await subscribe(solo.business, {}, soloMember)).toMatchObject({ status: 409, body: { code: 'payment_in_progress' } });
    expect((await server.db.select().from(payments)).length).toBe(paymentsBefore);
    expect((await client.call('/membership/', { token: soloMember, tenant: 'solo' })).body.membership.plan.id).toBe(solo.team);
    await server.db.delete(payments).where(eq(payments.id, pending!.id));
  });

  it('replaces a registered card through payment_method_id; another owner’s card id is 404', async () => {
    const view = await membership();
    const replaced = await register(ids.business, demoCard('3782 822463 10005'), admin, `?payment_method_id=${view.payment_methods[0].id}`);
    expect(replaced.body.membership.payment_method).toMatchObject({
      id: view.payment_methods[0].id,
      card_name: 'American Express',
      card_number: '**** **** **** 0005',
    });
    expect((await history()).items[0].kind).toBe('subscribe');
    expect((await register(ids.business, demoCard(APPROVED), acmeAdmin, `?payment_method_id=${view.payment_methods[0].id}`)).status).toBe(404);
  });

  it('checks the date helpers: month ends clamp, days carry over months', () => {
    expect(addMonth('2030-01-31')).toBe('2030-02-28');
    expect(addMonth('2032-01-31')).toBe('2032-02-29');
    expect(addMonth('2030-12-15')).toBe('2031-01-15');
    expect(addDays('2030-02-28', 1)).toBe('2030-03-01');
    expect(isoDay(new Date('2030-05-06T23:59:59Z'))).toBe('2030-05-06');
  });
});

describe('plans, membership and payments (PortOne, against its fake)', () => {
  const clock = testClock('2030-06-10T03:00:00Z');
  let sink: SmtpSink;
  let portone: FakePortOne;
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let admin: string;
  let ids: Awaited<ReturnType<typeof planIds>>;
  let webhookUrl: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    portone = await startFakePortOne();
    server = await startTestServer({
      clock: clock.now,
      config: {
        SMTP_URL: sink.url,
        BILLING_RENEWAL_SWEEP_SECONDS: 0,
        PORTONE_API_SECRET: portone.apiSecret,
        PORTONE_STORE_ID: portone.storeId,
        PORTONE_CHANNEL_KEY: 'channel-key-test',
        PORTONE_WEBHOOK_SECRET: portone.webhookSecret,
        PORTONE_API_BASE: portone.url,
        ...fastJobSettings,
      },
    });
    client = apiClient(server);
    admin = (await client.signIn(DEMO_ADMIN)).access_token;
    ids = await planIds(server);
    webhookUrl = `${server.apiBase}/payments/webhooks/portone/`;
  });
  afterAll(async () => {
    await server?.close();
    await portone?.close();
    await sink?.close();
  });

  const register = (planId: number, body: unknown) => client.call(`/member-billing-plans/${planId}/`, { method: 'POST', token: admin, body });
  const membership = async () => (await client.call('/membership/', { token: admin })).body;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
  let billingKey: string;

  it('names PortOne and its public ids to the client; refuses unknown keys (400), SDK failures (402) and demo cards (400)', async () => {
    expect((await client.call('/member-billing-plans/', { token: admin })).body.provider).toEqual({
      name: 'portone',
      store_id: portone.storeId,
      channel_key: 'channel-key-test',
      sdk_url: 'https://cdn.portone.io/v2/browser-sdk.js',
    });
    expect(await register(ids.team, { provider: 'portone', billing_key: 'billing-key-unknown' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_payment_result' },
    });
    expect(await register(ids.team, { provider: 'portone', billing_key: 'x', code: 'FAILURE_TYPE_PG', message: '카드 한도 초과' })).toMatchObject({
      status: 402,
      body: { code: 'card_declined', details: { reason: '카드 한도 초과' } },
    });
    expect(await register(ids.team, demoCard(APPROVED))).toMatchObject({ status: 400, body: { code: 'invalid_payment_result' } });
  });

  it('registers the billing key and charges it with our order id as the payment id', async () => {
    billingKey = portone.issueBillingKey('9410123456781234');
    const { status, body } = await register(ids.team, { provider: 'portone', billing_key: billingKey, transaction_type: 'ISSUE_BILLING_KEY' });
    expect(status).toBe(200);
    expect(body.membership).toMatchObject({
      plan: { id: ids.team },
      status: 'active',
      next_payment_date: '2030-07-10',
      payment_method: { card_name: '신한카드', card_number: '94101234****123*' },
    });
    const charge = portone.chargeRequests.at(-1)!;
    expect(charge.body).toMatchObject({
      storeId: portone.storeId,
      billingKey,
      channelKey: 'channel-key-test',
      amount: { total: 99_000 },
      currency: 'KRW',
      orderName: 'Team',
    });
    const [payment] = await server.db.select().from(payments).where(eq(payments.orderId, charge.paymentId));
    expect(payment).toMatchObject({ status: 'paid', provider: 'portone', receiptUrl: expect.stringContaining('https://receipt.portone.example/') });
    const stored = JSON.stringify(await server.db.select().from(paymentMethods));
    expect(stored).not.toContain('9410123456781234');
  });

  it('a card declined at the first charge is 402 and leaves a failed payment but no membership', async () => {
    const declining = portone.issueBillingKey('9410999988887777');
    portone.setDeclining(declining, true);
    const declined = await register(ids.business, { provider: 'portone', billing_key: declining });
    expect(declined).toMatchObject({ status: 402, body: { code: 'card_declined' } });
    expect((await membership()).membership).toMatchObject({ plan: { id: ids.team } });
    const [failed] = await server.db.select().from(payments).where(eq(payments.status, 'failed'));
    expect(failed).toMatchObject({ kind: 'upgrade', failureReason: expect.stringContaining('insufficient funds') });
    // The card stays registered (it replaced the membership's card); the next tests charge the first key again.
    const view = await membership();
    const first = view.payment_methods.find((m: { card_number: string }) => m.card_number.startsWith('94101234'));
    await server.db.update(memberships).set({ paymentMethodId: first.id }).where(eq(memberships.id, view.membership.id));
  });

  it('a declined renewal is retried one and three days later, mailing each failure, then the membership ends', async () => {
    portone.setDeclining(billingKey, true);
    const mailsBefore = sink.received.length;
    clock.set('2030-07-10T00:10:00Z');
    await sweep(server);
    expect((await membership()).membership).toMatchObject({
      status: 'active',
      failed_attempts: 1,
      next_attempt_at: '2030-07-11T00:00:00.000Z',
      next_payment_date: '2030-07-10',
    });
    const [firstMail] = await sink.mailsAfter(mailsBefore, 1, DEMO_ADMIN.email);
    expect(firstMail!.parsed.text).toContain('2030-07-11');

    clock.set('2030-07-11T00:10:00Z');
    await sweep(server);
    expect((await membership()).membership).toMatchObject({ failed_attempts: 2, next_attempt_at: '2030-07-13T00:00:00.000Z' });

    clock.set('2030-07-13T00:10:00Z');
    await sweep(server);
    expect((await membership()).membership).toBeNull();
    const mails = await sink.mailsAfter(mailsBefore, 3, DEMO_ADMIN.email);
    expect(sink.received.slice(mailsBefore).filter((mail) => mail.envelopeTo.includes(DEMO_ADMIN.email))).toHaveLength(3);
    expect(mails[2]!.parsed.subject).toMatch(/ended|종료/);
    const renewals = await server.db.select().from(payments).where(eq(payments.kind, 'renewal'));
    expect(renewals.map((row) => row.status)).toEqual(['failed', 'failed', 'failed']);
    expect(new Set(renewals.map((row) => row.orderId)).size).toBe(3);
  });

  it('settles a payment left pending from a verified webhook, once: replays, forged and stale signatures change nothing', async () => {
    portone.setDeclining(billingKey, false);
    const view = await membership();
    const first = view.payment_methods.find((m: { card_number: string }) => m.card_number.startsWith('94101234'));
    const again = await client.call(`/member-billing-plans/${ids.starter}/subscribe/`, { method: 'POST', token: admin, body: { payment_method_id: first.id } });
    expect(again.status).toBe(200);
    const membershipId = again.body.membership.id;
    // A renewal whose process died after PortOne charged it: our row still says pending.
    clock.set('2030-08-13T05:00:00Z');
    const orderId = `renewal-${membershipId}-2030-08-13-0`;
    const [plan] = await server.db.select().from(plans).where(eq(plans.id, ids.starter));
    await server.db.insert(payments).values({
      tenantId: ids.tenant.id,
      membershipId,
      planId: plan!.id,
      kind: 'renewal',
      amount: 29_000,
      credit: 20_000,
      provider: 'portone',
      orderId,
      ownerKey: `tenant:${ids.tenant.id}`,
      periodStart: '2030-08-13',
      periodEnd: '2030-09-13',
    });
    portone.payments.set(orderId, { id: orderId, status: 'PAID', amount: 29_000, billingKey, transactionId: 'tx-webhook' });
    const grants = async () =>
      (
        await server.db
          .select()
          .from(creditLedger)
          .where(and(eq(creditLedger.tenantId, ids.tenant.id), eq(creditLedger.kind, 'grant')))
      ).length;
    const grantsBefore = await grants();
    const event = {
      type: 'Transaction.Paid',
      timestamp: clock.now().toISOString(),
      data: { paymentId: orderId, storeId: portone.storeId, transactionId: 'tx-webhook' },
    };

    const forged = await portone.webhook(webhookUrl, event, { secret: `whsec_${Buffer.from('not the secret').toString('base64')}`, timestamp: nowSeconds() });
    expect(forged.status).toBe(401);
    const stale = await portone.webhook(webhookUrl, event, { timestamp: nowSeconds() - 3600 });
    expect(stale.status).toBe(401);
    const unsigned = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
    expect(unsigned.status).toBe(401);
    expect((await server.db.select().from(payments).where(eq(payments.orderId, orderId)))[0]!.status).toBe('pending');

    const delivered = await portone.webhook(webhookUrl, event, { id: 'msg_delivery_1', timestamp: nowSeconds() });
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toEqual({ ok: true, replayed: false });
    expect((await server.db.select().from(payments).where(eq(payments.orderId, orderId)))[0]).toMatchObject({
      status: 'paid',
      providerPaymentId: 'tx-webhook',
    });
    expect((await membership()).membership).toMatchObject({ next_payment_date: '2030-09-13' });
    expect(await grants()).toBe(grantsBefore + 1);

    const replayed = await portone.webhook(webhookUrl, event, { id: 'msg_delivery_1', timestamp: nowSeconds() });
    expect(await replayed.json()).toEqual({ ok: true, replayed: true });
    // A new delivery about the same, already settled payment acts no more than the replay.
    const redelivered = await portone.webhook(webhookUrl, event, { id: 'msg_delivery_2', timestamp: nowSeconds() });
    expect(redelivered.status).toBe(200);
    expect(await grants()).toBe(grantsBefore + 1);
  });
});
