/**
 * Rate limits hold across server processes: two app instances (as two processes behind a load
 * balancer) on one database, or on one Redis, share each client's count.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { setClock } from '../../src/server/clock';
import { type ServerConfig, testConfig } from '../../src/server/config';
import { type DatabaseHandle, openPglite, openPostgres } from '../../src/server/db/client';
import { errorLogs, rateLimits } from '../../src/server/db/schema';
import { seedDemoTenant } from '../../src/server/db/seed';
import { type RateLimitStore, postgresRateLimitStore, redisRateLimitStore } from '../../src/server/shared/rateLimit';
import { needService } from '../../scripts/optionalServices.mjs';
import { freshPostgresDatabase, migratedPglite } from '../fixtures/testServer';
import { freePort } from '../fixtures/ports';

const signInAttempt = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/sign-in/', remoteAddress, payload: { email: 'nobody@demo.test', password: 'Wrong!2345' } });
const errorReport = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/log-error/',
    remoteAddress,
    payload: {
      message: 'boom',
      source: 'js',
      url: 'https://app.example/',
      user_agent: 'vitest',
      timestamp: new Date().toISOString(),
      error_id: 'e',
      attachments: [],
    },
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Both processes' views of one database: two connection pools on PostgreSQL, one PGlite otherwise (it is single-process). */
async function sharedDatabase(): Promise<{ first: DatabaseHandle; second: DatabaseHandle; close(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const only = await openPglite(undefined, undefined, await migratedPglite());
    return { first: only, second: only, close: () => only.close() };
  }
  const fresh = await freshPostgresDatabase(adminUrl);
  const second = await openPostgres(fresh.url, 5);
  return {
    first: fresh.handle,
    second,
    async close() {
      await second.close();
      await fresh.handle.close();
      await fresh.drop();
    },
  };
}

/** The behaviour every store must have, whichever holds the counters. */
function describeStore(newStore: () => RateLimitStore) {
  it('counts concurrent hits atomically: each request gets its own count', async () => {
    const store = newStore();
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.hit('concurrent', 60_000)));
    expect(counts.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(counts.every((hit) => hit.msLeft > 0 && hit.msLeft <= 60_000)).toBe(true);
  });

  it('starts a new window at 1 once the old one has ended', async () => {
    const store = newStore();
    await store.hit('window', 300);
    expect((await store.hit('window', 300)).count).toBe(2);
    await sleep(450);
    expect((await store.hit('window', 300)).count).toBe(1);
  });

  it('remembers sign-in failures per key with the last one’s time (server clock), counts concurrent ones, and forgets a key its memory after the last', async () => {
    const store = newStore();
    const at = (ms: number) => new Date(Date.UTC(2031, 0, 1) + ms);
    await store.recordFailure(['fail-a', 'fail-b'], at(0), 60_000);
    await store.recordFailure(['fail-a'], at(1000), 60_000);
    const found = await store.failures(['fail-a', 'fail-b', 'fail-c'], at(2000));
    expect([...found.entries()].sort()).toEqual([
      ['fail-a', { count: 2, lastAt: at(1000) }],
      ['fail-b', { count: 1, lastAt: at(0) }],
    ]);
    // Forgotten once the memory has passed since the last failure; a new failure starts at 1.
    expect((await store.failures(['fail-a', 'fail-b'], at(61_000))).size).toBe(0);
    await store.recordFailure(['fail-a'], at(61_001), 60_000);
    expect((await store.failures(['fail-a'], at(61_002))).get('fail-a')).toEqual({ count: 1, lastAt: at(61_001) });

    await Promise.all(Array.from({ length: 10 }, () => store.recordFailure(['fail-c'], at(5000), 60_000)));
    expect((await store.failures(['fail-c'], at(5000))).get('fail-c')?.count).toBe(10);
  });
}

/** Wrong passwords on one process slow the failing client down on the other; a fresh client signs in on either (issue 20). */
async function expectSharedSignInDelays(first: FastifyInstance, second: FastifyInstance, clients: { failing: string; fresh: string }) {
  setClock(() => new Date('2031-02-01T10:00:00Z'));
  try {
    const wrong = { email: 'member@demo.test', password: 'Wrong!guess7' };
    const attempt = (app: FastifyInstance, remoteAddress: string, payload: object) =>
      app.inject({ method: 'POST', url: '/api/v1/auth/sign-in/', remoteAddress, payload });
    expect((await attempt(first, clients.failing, wrong)).statusCode).toBe(401);
    expect((await attempt(first, clients.failing, wrong)).statusCode).toBe(401);
    const refused = await attempt(second, clients.failing, { email: 'member@demo.test', password: 'DemoMember!234' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await attempt(second, clients.fresh, { email: 'member@demo.test', password: 'DemoMember!234' })).statusCode).toBe(200);
  } finally {
    setClock(null);
  }
}

const delayConfig = { SIGN_IN_RATE_LIMIT: 100, SIGN_IN_EMAIL_FREE_FAILURES: 2, SIGN_IN_IP_FREE_FAILURES: 100 };

describe('rate limits on the database', () => {
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let first: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    database = await sharedDatabase();
    await seedDemoTenant(database.first.db, { subdomain: 'demo', tenantName: 'Demo' });
    const config: ServerConfig = testConfig({ SIGN_IN_RATE_LIMIT: 3, ERROR_LOG_RATE_LIMIT: 2 });
    first = await buildApp({ db: database.first.db, config });
    second = await buildApp({ db: database.second.db, config });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
  });

  it('holds the sign-in limit across two server instances', async () => {
    const client = '203.0.113.10';
    expect((await signInAttempt(first, client)).statusCode).toBe(401);
    expect((await signInAttempt(second, client)).statusCode).toBe(401);
    expect((await signInAttempt(first, client)).statusCode).toBe(401);
    // Each instance alone has seen fewer than 4 attempts; together they are over the limit of 3.
    const refused = await signInAttempt(second, client);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited', details: { retry_after_seconds: expect.any(Number) } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signInAttempt(first, client)).statusCode).toBe(429);
    expect((await signInAttempt(first, '203.0.113.11')).statusCode).toBe(401);
  });

  it('cannot be escaped with a forged X-Forwarded-For unless TRUST_PROXY says a proxy sets it', async () => {
    const forged = (app: FastifyInstance, forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-in/',
        remoteAddress: '203.0.113.40',
        headers: { 'x-forwarded-for': forwardedFor },
        // An address of its own: the wrong passwords of the test above count against nobody@ (sign-in delays).
        payload: { email: 'forged@demo.test', password: 'Wrong!2345' },
      });
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt += 1) statuses.push((await forged(first, `198.51.100.${attempt}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);

    const behindProxy = await buildApp({ db: database.first.db, config: testConfig({ SIGN_IN_RATE_LIMIT: 3, TRUST_PROXY: true }) });
    try {
      // Behind a trusted load balancer each forwarded client has its own count.
      expect((await forged(behindProxy, '198.51.100.50')).statusCode).toBe(401);
      expect((await forged(behindProxy, '198.51.100.51')).statusCode).toBe(401);
    } finally {
      await behindProxy.close();
    }
  });

  it('shares sign-in failures across two server instances: the failing client waits on both, a fresh one signs in', async () => {
    const config = testConfig(delayConfig);
    const [one, two] = [await buildApp({ db: database.first.db, config }), await buildApp({ db: database.second.db, config })];
    try {
      await expectSharedSignInDelays(one, two, { failing: '203.0.113.50', fresh: '203.0.113.51' });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('limits anonymous error reports, and refused reports are not stored', async () => {
    const client = '203.0.113.20';
    const [before] = await database.first.db.select({ n: count() }).from(errorLogs);
    expect((await errorReport(first, client)).statusCode).toBe(200);
    expect((await errorReport(second, client)).statusCode).toBe(200);
    expect((await errorReport(first, client)).statusCode).toBe(429);
    expect((await errorReport(second, client)).statusCode).toBe(429);
    const [after] = await database.first.db.select({ n: count() }).from(errorLogs);
    expect(Number(after?.n) - Number(before?.n)).toBe(2);
    expect((await errorReport(second, '203.0.113.21')).statusCode).toBe(200);
  });

  describe('PostgreSQL store', () => {
    let prefix = 0;
    describeStore(() => {
      const store = postgresRateLimitStore(database.second.db);
      const own = `store-${(prefix += 1)}:`;
      return {
        hit: (key, windowMs) => store.hit(own + key, windowMs),
        failures: async (keys, now) =>
          new Map(
            [
              ...(await store.failures(
                keys.map((key) => own + key),
                now,
              )),
            ].map(([key, record]) => [key.slice(own.length), record]),
          ),
        recordFailure: (keys, now, memoryMs) =>
          store.recordFailure(
            keys.map((key) => own + key),
            now,
            memoryMs,
          ),
      };
    });
  });
});

describe.skipIf(!needService('redis'))('rate limits on Redis (REDIS_URL)', () => {
  let redisServer: ChildProcess;
  let database: DatabaseHandle;
  let redis: Redis;
  let redisUrl: string;

  beforeAll(async () => {
    // A free port, never a fixed one: another suite's server may hold any number we pick.
    const port = await freePort();
    redisUrl = `redis://127.0.0.1:${port}`;
    redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 20, retryStrategy: () => 100 });
    redis.on('error', () => {}); // refused until redis-server listens; the commands wait and retry
    await redis.flushall();
    database = await openPglite(undefined, undefined, await migratedPglite());
    await seedDemoTenant(database.db, { subdomain: 'demo', tenantName: 'Demo' });
  });
  afterAll(async () => {
    await redis?.quit();
    redisServer?.kill();
    await database?.close();
  });

  it('holds the sign-in limit across two server instances, with no count in the database', async () => {
    const config = testConfig({ SIGN_IN_RATE_LIMIT: 2, REDIS_URL: redisUrl });
    const [first, second] = [await buildApp({ db: database.db, config }), await buildApp({ db: database.db, config })];
    const client = '203.0.113.30';
    expect((await signInAttempt(first, client)).statusCode).toBe(401);
    expect((await signInAttempt(second, client)).statusCode).toBe(401);
    expect((await signInAttempt(first, client)).statusCode).toBe(429);
    expect(await redis.get(`rate-limit:sign-in:${client}`)).toBe('3');
    expect(await database.db.select().from(rateLimits)).toEqual([]);
    await Promise.all([first.close(), second.close()]);
  });

  it('shares sign-in failures across two server instances through Redis, with nothing in the database', async () => {
    const config = testConfig({ ...delayConfig, REDIS_URL: redisUrl });
    const [first, second] = [await buildApp({ db: database.db, config }), await buildApp({ db: database.db, config })];
    try {
      await expectSharedSignInDelays(first, second, { failing: '203.0.113.60', fresh: '203.0.113.61' });
      expect(await redis.exists('rate-limit:failures:sign-in-failures-ip:203.0.113.60')).toBe(1);
      expect(await database.db.select().from(rateLimits)).toEqual([]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  describe('Redis store', () => {
    let prefix = 0;
    describeStore(() => redisRateLimitStore(redis, `test-${(prefix += 1)}:`));
  });
});
