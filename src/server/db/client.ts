import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres, { type Sql } from 'postgres';
import { MIGRATIONS_DIR } from '../paths';
import * as schema from './schema';

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
  const client = new PGlite({ dataDir, extensions: { pg_trgm }, ...(from ? { loadDataDir: from } : {}) });
  const db = drizzlePglite({ client, schema, ...observing(observe) });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  locations.set(db as unknown as Database, { kind: 'pglite', client });
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
}

/** The whole of an embedded database as an archive, for `openPglite(…, from)`. */
export function dumpPglite(db: Database): Promise<Blob> {
  const location = databaseLocation(db);
  if (location.kind !== 'pglite') throw new Error('not a PGlite database');
  return location.client.dumpDataDir('none') as Promise<Blob>;
}

/**
 * The client with every statement Drizzle runs made a named prepared statement of its connection.
 * Drizzle asks postgres-js for an unnamed statement unless the query was `.prepare()`d, and
 * postgres-js then takes two round trips per statement (describe, then execute) while PostgreSQL
 * parses, analyses and plans it anew each time. A named one is parsed once per connection and then
 * runs in a single round trip, with its plan cached. Statement texts are parameterised, so there
 * are few of them; postgres-js recycles connections (max_lifetime), which bounds what each keeps.
 */
function preparingStatements(client: Sql): Sql {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'unsafe') {
        return (query: string, parameters?: unknown[], options?: object) => target.unsafe(query, parameters as never, { ...options, prepare: true });
      }
      // Transactions and savepoints hand their callback a client of their own: wrap that one too.
      if (key === 'begin' || key === 'savepoint') {
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: Sql) => unknown;
          const open = Reflect.get(target, key, target) as (...all: unknown[]) => unknown;
          return open.call(target, ...args, (tx: Sql) => callback(preparingStatements(tx)));
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
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
  const client = postgres(url, { max: poolSize, onnotice: () => {} });
  const db = drizzlePostgres({ client: preparingStatements(client), schema, ...observing(observe) });
  locations.set(db as unknown as Database, { kind: 'postgres', url });
  return { db: db as unknown as Database, kind: 'postgres', close: () => client.end() };
}
