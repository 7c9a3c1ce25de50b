import { isConnectionLost } from './databaseErrors';
import { inOpenTransaction } from './transactionGuard';

/**
 * True for a statement that only reads: Drizzle writes every query as `select …`. A `with …`
 * statement may hold a data-modifying common table expression (the chat turn's are), so it does
 * not count, however harmless most are.
 */
export function isReadStatement(statement: string): boolean {
  return /^\s*select\b/i.test(statement);
}

/**
 * Runs `run` once more when it failed because its database connection was lost (PostgreSQL
 * terminated the backend, the socket closed): the pool was replaced by then (postgresPool.ts), so
 * it runs on a new connection. The caller vouches that running it twice has the effect of running it once (a read;
 * an insert that does nothing on conflict with the row a first run may have written; a whole
 * transaction whose second run is harmless). Inside an open transaction it is never retried: the
 * transaction died with its connection, and only its caller may run it again as a whole.
 */
export async function retryOnLostConnection<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isConnectionLost(error) || inOpenTransaction()) throw error;
    return run();
  }
}
