import { PGlite } from '@electric-sql/pglite';
import { type ConstructorOptions, fromPglite } from 'pg-boss';
import type { Sql } from 'postgres';
import type { Database } from '../db/client';

type QueueDatabase = NonNullable<ConstructorOptions['db']>;

/**
 * How pg-boss reaches the app's database: through the same client the app already holds, so the
 * queue needs no connection settings of its own. PGlite is one in-process connection (pg-boss's own
 * PGlite adapter and backend profile); PostgreSQL is the app's postgres-js pool.
 */
export function queueConnection(db: Database): Pick<ConstructorOptions, 'db' | 'backend'> {
  // Both drizzle drivers keep the client they were built on in `$client`.
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) return { backend: 'pglite', db: fromPglite(client) };
  return { backend: 'postgres', db: fromPostgresJs(client as Sql) };
}

/**
 * pg-boss statements over postgres-js. Statements without parameters may hold several commands
 * (schema migrations, BEGIN … COMMIT blocks): postgres-js sends those with the simple protocol and
 * answers one result per command, whose rows are flattened as node-postgres callers expect.
 */
function fromPostgresJs(sql: Sql): QueueDatabase {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result: unknown[] = values?.length ? await sql.unsafe(text, values as never[]) : await sql.unsafe(text);
      const isPerCommand = result.length > 0 && result.every((entry) => Array.isArray(entry));
      return { rows: isPerCommand ? result.flat() : result };
    },
  };
}
