/**
 * The postgres-js client behind the app's outer PostgreSQL handle: prepared statements, the
 * transaction guard, and what a lost connection does (a retry on a new connection where it is safe).
 */
import postgres, { type PendingQuery, type Row, type Sql } from 'postgres';
import { isReadStatement, retryOnLostConnection } from './connectionRetry';
import { isConnectionLost } from './databaseErrors';
import { assertOutsideTransaction, runInTransactionScope } from './transactionGuard';

/** How long a replaced pool's connections may finish the statements they run before they are closed. */
const REPLACED_POOL_GRACE_SECONDS = 30;
/** How long a transaction whose connection was lost waits for postgres-js to see the close (it always comes first). */
const LOST_TRANSACTION_WAIT_MS = 10_000;

/**
 * Every statement Drizzle runs made a named prepared statement of its connection. Drizzle asks
 * postgres-js for an unnamed statement unless the query was `.prepare()`d, and postgres-js then
 * takes two round trips per statement (describe, then execute) while PostgreSQL parses, analyses
 * and plans it anew each time. A named one is parsed once per connection and then runs in a single
 * round trip, with its plan cached. Statement texts are parameterised, so there are few of them;
 * postgres-js recycles connections (max_lifetime), which bounds what each keeps.
 */
const preparedUnsafe =
  (client: Sql) =>
  (query: string, parameters?: unknown[], options?: object): PendingQuery<Row[]> =>
    client.unsafe(query, parameters as never, { ...options, prepare: true });

/**
 * The pool, replaced by a new one when one of its connections is lost. postgres-js (3.4.9)
 * reconnects a lost connection itself, but one that closes while a write of it is still queued
 * keeps a stale write timer: its next startup message is never sent, and every query given to it
 * waits for the connect timeout, again and again. A new pool has only new connections, so a retry
 * runs on one that is alive; the old pool's healthy connections finish their statements and close.
 */
function renewingPool(first: Sql, open: () => Sql) {
  let current = first;
  const ending = new Set<Promise<void>>();
  return {
    get current() {
      return current;
    },
    /** After a connection of `pool` was lost; nothing when it was replaced already. */
    renew(pool: Sql) {
      if (pool !== current) return;
      current = open();
      const end: Promise<void> = pool
        .end({ timeout: REPLACED_POOL_GRACE_SECONDS })
        .catch(() => {})
        .finally(() => ending.delete(end));
      ending.add(end);
    },
    async end() {
      await Promise.all([current.end(), ...ending]);
    },
  };
}
type RenewingPool = ReturnType<typeof renewingPool>;

/**
 * `begin` or `savepoint` whose callback gets the transaction's own client. When the callback fails
 * because the connection was lost, the failure is held back from postgres-js: it would write
 * ROLLBACK to that connection, whose socket is gone, and 3.4.9 then throws from a timer, an uncaught
 * TypeError that ends the process (porsager/postgres#1208, reproduced with pg_terminate_backend on
 * an open transaction). postgres-js rejects the transaction itself when it takes in the close, which
 * follows every such error; `lost` answers the caller in case it does not.
 */
function opening(client: Sql, key: 'begin' | 'savepoint', lost: (error: unknown) => void, scope: <T>(run: () => Promise<T>) => Promise<T>) {
  return (...args: unknown[]) => {
    const callback = args.pop() as (tx: Sql) => unknown;
    const open = Reflect.get(client, key, client) as (...all: unknown[]) => Promise<unknown>;
    return open.call(client, ...args, (tx: Sql) =>
      scope(async () => {
        try {
          return await callback(transactionClient(tx, lost));
        } catch (error) {
          if (!isConnectionLost(error)) throw error;
          lost(error);
          return new Promise<never>(() => {});
        }
      }),
    );
  };
}

/** A transaction's (or savepoint's) own client: prepared statements; it is the one to use inside. */
function transactionClient(tx: Sql, lost: (error: unknown) => void): Sql {
  const unsafe = preparedUnsafe(tx);
  const savepoint = opening(tx, 'savepoint', lost, (run) => run());
  return new Proxy(tx, {
    get(target, key, receiver) {
      if (key === 'unsafe') return unsafe;
      if (key === 'savepoint') return savepoint;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** A transaction on the current pool; a lost connection replaces the pool before the caller hears of it. */
function transaction(pool: RenewingPool) {
  return async (...args: unknown[]) => {
    const client = pool.current;
    let giveUp: (error: unknown) => void = () => {};
    const abandoned = new Promise<never>((_, reject) => (giveUp = reject));
    const lost = (error: unknown) => setTimeout(() => giveUp(error), LOST_TRANSACTION_WAIT_MS).unref();
    try {
      return await Promise.race([opening(client, 'begin', lost, runInTransactionScope)(...args), abandoned]);
    } catch (error) {
      if (isConnectionLost(error)) pool.renew(client);
      throw error;
    }
  };
}

/**
 * A statement on the outer client as Drizzle awaits it (`await q` or `await q.values()`). A lost
 * connection replaces the pool; a read (`retry`) then runs once more, on the new pool.
 */
function statement(pool: RenewingPool, start: (client: Sql) => PendingQuery<Row[]>, retry: boolean) {
  let asValues = false;
  let result: Promise<unknown> | undefined;
  const attempt = async () => {
    const client = pool.current;
    try {
      const query = start(client);
      return asValues ? await query.values() : await query;
    } catch (error) {
      if (isConnectionLost(error)) pool.renew(client);
      throw error;
    }
  };
  const pending = {
    values() {
      asValues = true;
      return pending;
    },
    then<A, B>(onFulfilled?: (value: unknown) => A | PromiseLike<A>, onRejected?: (reason: unknown) => B | PromiseLike<B>) {
      result ??= retry ? retryOnLostConnection(attempt) : attempt();
      return result.then(onFulfilled, onRejected);
    },
  };
  return pending;
}

/**
 * The app's outer handle on a PostgreSQL pool of `max` connections: prepared statements; reads
 * retried once on a new connection when theirs was lost (a write is not: its effect is unknown, and
 * only its caller can say it is safe, with `retryOnLostConnection`); no statement or transaction
 * while the async context holds an open transaction (transactionGuard.ts), which must use its own.
 */
export function openPostgresPool(url: string, max: number): { client: Sql; end(): Promise<void> } {
  const connect = () => postgres(url, { max, onnotice: () => {} });
  const first = connect();
  const pool = renewingPool(first, () => {
    const next = connect();
    // Drizzle sets its type parsers on the first pool's options; every later pool takes them over.
    Object.assign(next.options.parsers, first.options.parsers);
    Object.assign(next.options.serializers, first.options.serializers);
    return next;
  });
  const begin = transaction(pool);
  const client = new Proxy(first, {
    apply(_target, thisArg, args: unknown[]) {
      assertOutsideTransaction('a statement');
      return Reflect.apply(pool.current, thisArg, args) as unknown;
    },
    get(_target, key) {
      if (key === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: object) => {
          assertOutsideTransaction(`"${query.slice(0, 80)}"`);
          return statement(pool, (current) => preparedUnsafe(current)(query, parameters, options), isReadStatement(query));
        };
      }
      if (key === 'begin') {
        assertOutsideTransaction('a transaction');
        return begin;
      }
      if (key === 'reserve') assertOutsideTransaction('a reserved connection');
      return Reflect.get(pool.current, key, pool.current) as unknown;
    },
  });
  return { client, end: () => pool.end() };
}
