import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inquiries, members, tenants } from '../../src/server/db/schema';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { DEMO_ADMIN, DEMO_MEMBER, type TestServer, startTestServer } from '../fixtures/testServer';
import { apiClient } from './helpers/client';

describe('contact inquiries', () => {
  let sink: SmtpSink;
  let server: TestServer;
  let client: ReturnType<typeof apiClient>;
  let token: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({
      extraTenants: ['acme'],
      config: { SMTP_URL: sink.url, SUPPORT_EMAIL: 'help@platform.example.test', INQUIRY_LIMIT_PER_HOUR: 3 },
    });
    client = apiClient(server);
    token = (await client.signIn(DEMO_MEMBER)).access_token;
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const send = (body: unknown, as = token) => client.call('/inquiries/', { method: 'POST', body, token: as });

  it("is kept and mailed to the tenant's support address in the member's language, with the reply address and phone", async () => {
    await server.db.update(tenants).set({ supportEmail: 'support@demo.example.test' }).where(eq(tenants.subdomain, 'demo'));
    await server.db.update(members).set({ language: 'ko' }).where(eq(members.email, DEMO_MEMBER.email));
    const before = sink.received.length;
    const answer = await send({ inquiry: 'How do I raise my credit limit?', email: 'ada.reply@example.test', phone: '+82 10-1234-5678' });
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });

    const [mail] = await sink.mailsAfter(before);
    expect(mail!.envelopeTo).toEqual(['support@demo.example.test']);
    expect(mail!.parsed.subject).toContain('문의');
    expect(mail!.parsed.text).toContain('How do I raise my credit limit?');
    expect(mail!.parsed.text).toContain('ada.reply@example.test');
    expect(mail!.parsed.text).toContain('+82 10-1234-5678');
    const [stored] = await server.db.select().from(inquiries).where(eq(inquiries.email, 'ada.reply@example.test'));
    expect(stored).toMatchObject({ inquiry: 'How do I raise my credit limit?', phone: '+82 10-1234-5678' });
    expect(stored!.mailedAt).toBeInstanceOf(Date);
  });

  it('goes to SUPPORT_EMAIL when the tenant has no address of its own', async () => {
    const adminToken = (await client.signIn(DEMO_ADMIN, 'acme')).access_token;
    const before = sink.received.length;
    const answer = await client.call('/inquiries/', {
      method: 'POST',
      body: { inquiry: 'Hello from acme', email: 'admin.reply@example.test' },
      token: adminToken,
      tenant: 'acme',
    });
    expect(answer.status).toBe(200);
    expect((await sink.mailsAfter(before))[0]!.envelopeTo).toEqual(['help@platform.example.test']);
  });

  it('refuses an empty inquiry, a bad email or phone with 400, and anonymous callers with 401', async () => {
    for (const body of [
      { inquiry: '   ', email: 'a@example.test' },
      { inquiry: 'Hi', email: 'not-an-email' },
      { inquiry: 'Hi', email: 'a@example.test', phone: 'call me' },
      { inquiry: 'x'.repeat(5001), email: 'a@example.test' },
    ]) {
      expect((await send(body)).status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await client.call('/inquiries/', { method: 'POST', body: { inquiry: 'Hi', email: 'a@example.test' } })).status).toBe(401);
  });

  it('answers 429 with the time to wait beyond the hourly limit', async () => {
    const other = (await client.signIn(DEMO_ADMIN)).access_token;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send({ inquiry: `Question ${i}`, email: 'admin@example.test' }, other)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await send({ inquiry: 'One more', email: 'admin@example.test' }, other);
    expect(refused.body).toMatchObject({ code: 'rate_limited', details: { retry_after_seconds: expect.any(Number) } });
  });
});
