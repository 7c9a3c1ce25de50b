/**
 * Fixed-window rate limits that hold across every server process behind a load balancer: the
 * counters live in PostgreSQL (the server's own database, PGlite included) or, when REDIS_URL is
 * set, in Redis. `rateLimit(key, limit, windowMs)` counts one request and refuses it with 429 once
 * more than `limit` arrived in the key's current window.
 */
import { lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Database } from '../db/client';
import { retryOnLostConnection } from '../db/connectionRetry';
import { rateLimits } from '../db/schema';
import { AppError } from '../errors';

/** The count of the key's current window after this request, and the time left in that window. */
export interface RateLimitHit {
  count: number;
  msLeft: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
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
  };
}

/** INCR, and PEXPIRE when the key is new, in one Lua script: Redis runs it atomically. */
const REDIS_HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

export function redisRateLimitStore(redis: Redis, prefix = 'rate-limit:'): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const [count, msLeft] = (await redis.eval(REDIS_HIT_SCRIPT, 1, `${prefix}${key}`, windowMs)) as [number, number];
      return { count, msLeft: msLeft > 0 ? msLeft : windowMs };
    },
  };
}

export function createRateLimiter(store: RateLimitStore) {
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
