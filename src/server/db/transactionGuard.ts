import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The transaction the current async context runs in. `open` turns false when the transaction ends:
 * work it started that outlives it (a timer, a shared cache load, pg-boss's polling) may use the
 * database afterwards, since only a statement issued while the transaction holds its connection
 * can wait on it forever.
 */
interface TransactionScope {
  open: boolean;
}

const scopes = new AsyncLocalStorage<TransactionScope>();

/**
 * A statement went to the outer database handle while its async context holds a transaction. On
 * PGlite (one connection) it would wait for that transaction, which waits for it: the whole server
 * freezes. On PostgreSQL it takes a second connection and can wait on the transaction's own row
 * locks, a deadlock PostgreSQL cannot see. Pass the transaction down instead.
 */
export class OuterDatabaseInTransactionError extends Error {
  override name = 'OuterDatabaseInTransactionError';
  constructor(what: string) {
    super(`${what} on the outer database handle inside an open transaction: pass the transaction (tx) down instead`);
  }
}

/** True while the current async context holds an open transaction. */
export function inOpenTransaction(): boolean {
  return scopes.getStore()?.open === true;
}

/** Throws instead of deadlocking when the outer handle is used inside an open transaction. */
export function assertOutsideTransaction(what: string): void {
  if (inOpenTransaction()) throw new OuterDatabaseInTransactionError(what);
}

/** Runs a transaction's callback with its async context marked open until the callback settles. */
export async function runInTransactionScope<T>(callback: () => T | Promise<T>): Promise<T> {
  const scope: TransactionScope = { open: true };
  try {
    return await scopes.run(scope, callback);
  } finally {
    scope.open = false;
  }
}
