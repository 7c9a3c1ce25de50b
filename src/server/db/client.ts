import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { MIGRATIONS_DIR } from '../paths';
import { openPostgresPool } from './postgresPool';
import { cacheRenderedStatements } from './renderedStatements';
import * as schema from './schema';
import { assertOutsideTransaction, runInTransactionScope } from './transactionGuard';

/** Either driver behind one type: services never know which database they talk to. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything queries can run on: the database or an open transaction. */
export type Queryable = Database | Transaction;

/** Sees the text of every statement the database runs (benchmarks count queries with it). */
export type QueryObserver = (query: string) => void;

const observing = (observe?: QueryObserver) => (observe ? { logger: { logQuery: (query: string) => observe(query) } } : {});

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** The database with its statements' texts cached by shape (renderedStatements.ts); its transactions share its dialect. */
function cachingRenderedStatements<D extends object>(db: D): D {
  const { dialect } = db as unknown as { dialect: { sqlToQuery: Parameters<typeof cacheRenderedStatements>[0] } };
  dialect.sqlToQuery = cacheRenderedStatements(dialect.sqlToQuery.bind(dialect));
  return db;
}

/** Where a database lives, for components that need their own access to it (the job queue). */
export type DatabaseLocation = { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; url: string };
const locations = new WeakMap<Database, DatabaseLocation>();

/** The location of a database opened by `openPglite` or `openPostgres`. */
export function databaseLocation(db: Database): DatabaseLocation {
  const location = locations.get(db);
  if (!location) throw new Error('this database was not opened by openPglite or openPostgres');
  return location;
}

/** Any constant works; it only has to be the same in every server process. */
const MIGRATION_LOCK_KEY = 7_240_611;

/**
 * Embedded PostgreSQL in a directory (or in memory when `dataDir` is omitted), migrated. `from`
 * starts it as a copy of a dumped one (`dumpPglite`): tests start hundreds of databases, and
 * copying a migrated one is several times faster than migrating each.
 */
export async function openPglite(dataDir?: string, observe?: QueryObserver, from?: Blob): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pg_trgm: retrieval ranks passages by trigram similarity too (migration 0006 creates the extension).
  const raw = new PGlite({ dataDir, extensions: { pg_trgm }, ...(from ? { loadDataDir: from } : {}) });
  const client = guardedPglite(raw);
  const db = cachingRenderedStatements(drizzlePglite({ client, schema, ...observing(observe) }));
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  locations.set(db as unknown as Database, { kind: 'pglite', client });
  return { db: db as unknown as Database, kind: 'pglite', close: () => raw.close() };
}

/** The whole of an embedded database as an archive, for `openPglite(…, from)`. */
export function dumpPglite(db: Database): Promise<Blob> {
  const location = databaseLocation(db);
  if (location.kind !== 'pglite') throw new Error('not a PGlite database');
  return location.client.dumpDataDir('none') as Promise<Blob>;
}

/** PGlite's methods that run statements; each waits for an open transaction to end first. */
const PGLITE_STATEMENT_METHODS = new Set<PropertyKey>([
  'query',
  'sql',
  'exec',
  'describeQuery',
  'listen',
  'unlisten',
  'execProtocol',
  'execProtocolRaw',
  'execProtocolStream',
]);

/**
 * The PGlite client every user of the embedded database goes through (Drizzle, pg-boss's adapter):
 * a statement or a transaction started while the async context holds an open transaction throws
 * instead of waiting forever for the one connection (transactionGuard.ts).
 */
function guardedPglite(client: PGlite): PGlite {
  const wrapped = new Map<PropertyKey, { original: unknown; method: unknown }>();
  const wrap = (key: PropertyKey, original: (...args: unknown[]) => unknown) => {
    // Called on the client itself, never on the proxy: PGlite keeps its state in private fields.
    const bound = original.bind(client);
    if (key === 'transaction') {
      return (callback: (tx: unknown) => unknown) => {
        assertOutsideTransaction('a transaction');
        return bound((tx: unknown) => runInTransactionScope(() => callback(tx)));
      };
    }
    if (!PGLITE_STATEMENT_METHODS.has(key)) return bound;
    return (...args: unknown[]) => {
      assertOutsideTransaction(`PGlite ${String(key)}`);
      return bound(...args);
    };
  };
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const known = wrapped.get(key);
      if (known?.original === value) return known.method;
      const method = wrap(key, value as (...args: unknown[]) => unknown);
      wrapped.set(key, { original: value, method });
      return method;
    },
  });
}

/**
 * A real PostgreSQL, migrated under an advisory lock so that several server processes starting
 * together do not run the same migration twice.
 */
export async function openPostgres(url: string, poolSize = 20, observe?: QueryObserver): Promise<DatabaseHandle> {
  const migrationClient = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrationClient`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(drizzlePostgres({ client: migrationClient }), { migrationsFolder: MIGRATIONS_DIR });
    await migrationClient`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await migrationClient.end();
  }
  const pool = openPostgresPool(url, poolSize);
  const db = cachingRenderedStatements(drizzlePostgres({ client: pool.client, schema, ...observing(observe) }));
  locations.set(db as unknown as Database, { kind: 'postgres', url });
  return { db: db as unknown as Database, kind: 'postgres', close: () => pool.end() };
}
