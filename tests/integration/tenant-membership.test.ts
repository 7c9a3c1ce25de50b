import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, plans, tenants } from '../../src/server/db/schema';
import { DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

let server: TestServer;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server);
});
afterAll(async () => server?.close());

describe('GET /tenants/membership/', () => {
  it('answers 401 signed out (get_tenant_membership_data_401)', async () => {
    const result = await api.call('/tenants/membership/');
    expect(result.status).toBe(401);
  });

  it("gives a member the tenant's plan, seats in use, and the subscription with a pending plan change", async () => {
    const { access_token: token } = await api.signIn(DEMO_MEMBER);
    const first = await api.call('/tenants/membership/', { token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      plan: { id: expect.any(Number), en_name: expect.any(String) },
      plan_status: 'active',
      next_plan: null,
      membership_status: null,
      member_count: expect.any(Number),
    });
    expect(first.body.member_count).toBeGreaterThanOrEqual(2);

    const [tenant] = await server.db.select().from(tenants).where(eq(tenants.subdomain, server.config.DEFAULT_TENANT));
    const [bigger] = await server.db
      .insert(plans)
      .values({ tenantId: tenant!.id, koName: '비즈니스', enName: 'Business', krwMonthPrice: 99000, credit: 100000, memberLimit: 500, invitationLimit: 500 })
      .returning();
    await server.db.insert(memberships).values({
      tenantId: tenant!.id,
      planId: tenant!.planId!,
      nextPlanId: bigger!.id,
      price: 49000,
      currency: 'KRW',
      status: 'active',
      nextPaymentDate: '2026-12-01',
    });
    const second = await api.call('/tenants/membership/', { token });
    expect(second.body).toMatchObject({
      next_plan: { en_name: 'Business', member_limit: 500 },
      membership_status: 'active',
      price: 49000,
      currency: 'KRW',
      next_payment_date: '2026-12-01',
    });
  });
});
