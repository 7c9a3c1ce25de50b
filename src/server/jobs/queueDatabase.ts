import { type ConstructorOptions, fromPglite } from 'pg-boss';
import { type Database, databaseLocation } from '../db/client';

/** Connections pg-boss holds per process on PostgreSQL, besides the app's pool (polling, heartbeats, supervision). */
const QUEUE_POOL_SIZE = 4;

/**
 * How pg-boss reaches the app's database. PGlite is one in-process connection, shared through
 * pg-boss's own PGlite adapter and backend profile; on PostgreSQL pg-boss keeps a small pool of its
 * own (node-postgres, its native driver) to the same database.
 */
export function queueConnection(db: Database): Pick<ConstructorOptions, 'db' | 'backend' | 'connectionString' | 'max'> {
  const location = databaseLocation(db);
  if (location.kind === 'pglite') return { backend: 'pglite', db: fromPglite(location.client) };
  return { backend: 'postgres', connectionString: location.url, max: QUEUE_POOL_SIZE };
}
