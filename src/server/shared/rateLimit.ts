/**
 * Fixed-window rate limits that hold across every server process behind a load balancer: the
 * counters live in PostgreSQL (the server's own database, PGlite included) or, when REDIS_URL is
 * set, in Redis. `rateLimit(key, limit, windowMs)` counts one request and refuses it with 429 once
 * more than `limit` arrived in the key's current window.
 */
import { and, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import type { AppDeps } from '../deps';
import { retryOnLostConnection } from '../db/connectionRetry';
import { rateLimits } from '../db/schema';
import { AppError } from '../errors';

/** The count of the key's current window after this request, and the time left in that window. */
export interface RateLimitHit {
  count: number;
  msLeft: number;
}

/** Failed attempts recorded under a key: how many, and when the last one happened (server clock). */
export interface FailureRecord {
  count: number;
  lastAt: Date;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** The failures recorded under each key and not yet forgotten at `now` (missing keys are left out). */
  failures(keys: string[], now: Date): Promise<Map<string, FailureRecord>>;
  /**
   * Records one failure under each key at `now`; a key is forgotten `memoryMs` after its last failure
   * (a later failure starts again at 1).
   */
  recordFailure(keys: string[], now: Date, memoryMs: number): Promise<void>;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many attempts. Please try again later.', { retry_after_seconds: retryAfterSeconds });
  }
}

/** Expired rows are swept once every this many hits per process (they are also reset in place when hit again). */
const SWEEP_EVERY_HITS = 1000;

/**
 * One row per key, counted by a single upsert: PostgreSQL locks the row for the update, so
 * concurrent requests from any number of processes each get their own count. A window that has
 * ended restarts at 1. The database clock decides, so process clocks need not agree.
 */
export function postgresRateLimitStore(db: Database): RateLimitStore {
  let hitsSinceSweep = 0;
  return {
    async hit(key, windowMs) {
      const windowEnd = sql`now() + ${windowMs}::integer * interval '1 millisecond'`;
      const expired = sql`${rateLimits.resetAt} <= now()`;
      // Run again when the connection was lost: a hit that reached the database before is then
      // counted twice, which errs on the strict side (the limit never lets more through).
      const [row] = await retryOnLostConnection(() =>
        db
          .insert(rateLimits)
          .values({ key, count: 1, resetAt: windowEnd })
          .onConflictDoUpdate({
            target: rateLimits.key,
            set: {
              count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
              resetAt: sql`case when ${expired} then excluded.reset_at else ${rateLimits.resetAt} end`,
            },
          })
          .returning({ count: rateLimits.count, msLeft: sql<number>`ceil(extract(epoch from ${rateLimits.resetAt} - now()) * 1000)::integer` }),
      );
      if (!row) throw new Error('rate limit upsert returned no row');
      if (++hitsSinceSweep >= SWEEP_EVERY_HITS) {
        hitsSinceSweep = 0;
        // Housekeeping only (an expired row is also reset in place): the counted request does not wait for it.
        db.delete(rateLimits)
          .where(lt(rateLimits.resetAt, sql`now()`))
          .catch(() => {});
      }
      return { count: row.count, msLeft: Number(row.msLeft) };
    },
    // Failures share the table (their keys have their own prefix): `reset_at` is when the key is
    // forgotten, `last failure + memory`, so the last failure is `reset_at - memory`. Times come from
    // the server clock (tests move it), not the database's.
    async failures(keys, now) {
      if (keys.length === 0) return new Map();
      const rows = await retryOnLostConnection(() =>
        db
          .select({ key: rateLimits.key, count: rateLimits.count, resetAt: rateLimits.resetAt, lastAt: rateLimits.lastAt })
          .from(rateLimits)
          .where(and(inArray(rateLimits.key, keys), gt(rateLimits.resetAt, now))),
      );
      return new Map(rows.filter((row) => row.lastAt).map((row) => [row.key, { count: row.count, lastAt: row.lastAt! }]));
    },
    async recordFailure(keys, now, memoryMs) {
      const forgetAt = new Date(now.getTime() + memoryMs);
      // An ISO string with a cast: a raw Date parameter is not serialised by every driver (postgres-js).
      const forgotten = sql`${rateLimits.resetAt} <= ${now.toISOString()}::timestamptz`;
      for (const key of keys) {
        // Counted again when the connection was lost after the write: errs on the strict side.
        await retryOnLostConnection(() =>
          db
            .insert(rateLimits)
            .values({ key, count: 1, resetAt: forgetAt, lastAt: now })
            .onConflictDoUpdate({
              target: rateLimits.key,
              set: { count: sql`case when ${forgotten} then 1 else ${rateLimits.count} + 1 end`, resetAt: forgetAt, lastAt: now },
            }),
        );
      }
    },
  };
}

/** INCR, and PEXPIRE when the key is new, in one Lua script: Redis runs it atomically. */
const REDIS_HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/**
 * One failure: a hash of the count and the last failure's time (ms, server clock); a key whose last
 * failure is older than the memory restarts at 1. Redis also drops it once the memory has passed.
 */
const REDIS_FAILURE_SCRIPT = `
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
local now = tonumber(ARGV[1])
local memory = tonumber(ARGV[2])
if last + memory <= now then redis.call('HSET', KEYS[1], 'count', 0) end
redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1], 'memory', ARGV[2])
redis.call('PEXPIRE', KEYS[1], memory)
return 1`;

export function redisRateLimitStore(redis: Redis, prefix = 'rate-limit:'): RateLimitStore {
  const failurePrefix = `${prefix}failures:`;
  return {
    async hit(key, windowMs) {
      const [count, msLeft] = (await redis.eval(REDIS_HIT_SCRIPT, 1, `${prefix}${key}`, windowMs)) as [number, number];
      return { count, msLeft: msLeft > 0 ? msLeft : windowMs };
    },
    async failures(keys, now) {
      const found = new Map<string, FailureRecord>();
      for (const key of keys) {
        const [count, last, memory] = await redis.hmget(`${failurePrefix}${key}`, 'count', 'last', 'memory');
        // Redis's own expiry runs on its clock; the server clock decides (tests move it).
        if (count && last && Number(last) + Number(memory) > now.getTime()) found.set(key, { count: Number(count), lastAt: new Date(Number(last)) });
      }
      return found;
    },
    async recordFailure(keys, now, memoryMs) {
      for (const key of keys) {
        await redis.eval(REDIS_FAILURE_SCRIPT, 1, `${failurePrefix}${key}`, now.getTime(), memoryMs);
      }
    },
  };
}

export function createRateLimiter({ rateLimits: store }: Pick<AppDeps, 'rateLimits'>) {
  return {
    /** Counts one request for `key`; throws RateLimitedError (429) once `limit` is exceeded within `windowMs`. */
    async rateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitState> {
      const { count, msLeft } = await store.hit(key, windowMs);
      const retryAfterSeconds = Math.max(1, Math.ceil(msLeft / 1000));
      if (count > limit) throw new RateLimitedError(retryAfterSeconds);
      return { limit, remaining: limit - count, retryAfterSeconds };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

interface SignInDelaySettings {
  /** Failures per email (any client) before the delays start. */
  emailFreeFailures: number;
  /** Failures per client IP (any email, any tenant) before the delays start. */
  ipFreeFailures: number;
  /** The longest delay. */
  maxDelayMs: number;
  /** A key's failures are forgotten this long after its last one. */
  memoryMs: number;
}

const signInDelaySettings = (config: ServerConfig): SignInDelaySettings => ({
  emailFreeFailures: config.SIGN_IN_EMAIL_FREE_FAILURES,
  ipFreeFailures: config.SIGN_IN_IP_FREE_FAILURES,
  maxDelayMs: config.SIGN_IN_DELAY_MAX_SECONDS * 1000,
  memoryMs: config.SIGN_IN_FAILURE_MEMORY_SECONDS * 1000,
});

/**
 * How long after its last failure the next attempt must wait: nothing for the first `free` failures,
 * then 1 s, 2 s, 4 s… doubling with each further failure, capped at `maxDelayMs`.
 */
export function delayAfterFailures(count: number, free: number, maxDelayMs: number): number {
  if (count < free) return 0;
  return Math.min(maxDelayMs, 1000 * 2 ** Math.min(count - free, 40));
}

/**
 * Growing delays on wrong passwords instead of a lockout (docs/decisions/0015-account-rules.md). Failures
 * are recorded per email (of a tenant) and per client IP in the shared store, so every process sees
 * them. A client whose own failures call for a wait is answered 429 before its password is checked.
 * The email's delay applies only to clients that have failures recorded themselves: a client that
 * has not been failing is never refused for what others did to the address, so nobody can lock
 * anyone else out.
 */
export function createSignInDelays({ rateLimits: store, config, clock: now }: Pick<AppDeps, 'rateLimits' | 'config' | 'clock'>) {
  const settings = signInDelaySettings(config);
  const ipKey = (ip: string) => `sign-in-failures-ip:${ip}`;
  const emailKey = (tenantId: number, email: string) => `sign-in-failures-email:${tenantId}:${email}`;
  /** Never more than the delay itself: a failure stamped ahead of this process's clock (skew) cannot lengthen it. */
  const msLeft = (record: FailureRecord | undefined, free: number, at: Date) => {
    const delay = record ? delayAfterFailures(record.count, free, settings.maxDelayMs) : 0;
    return delay > 0 ? Math.min(delay, record!.lastAt.getTime() + delay - at.getTime()) : 0;
  };

  return {
    /** Throws RateLimitedError (429, Retry-After) while this client must wait; call before checking the password. */
    async check(tenantId: number, email: string, ip: string): Promise<void> {
      const at = now();
      const found = await store.failures([ipKey(ip), emailKey(tenantId, email)], at);
      const ipRecord = found.get(ipKey(ip));
      const wait = Math.max(
        msLeft(ipRecord, settings.ipFreeFailures, at),
        // Only a client that has been failing itself waits for the email's delay.
        ipRecord ? msLeft(found.get(emailKey(tenantId, email)), settings.emailFreeFailures, at) : 0,
      );
      if (wait > 0) throw new RateLimitedError(Math.max(1, Math.ceil(wait / 1000)));
    },
    /** Records a wrong password (or an unknown email: the same, so addresses are not revealed). */
    async failed(tenantId: number, email: string, ip: string): Promise<void> {
      await store.recordFailure([ipKey(ip), emailKey(tenantId, email)], now(), settings.memoryMs);
    },
  };
}

export type SignInDelays = ReturnType<typeof createSignInDelays>;
