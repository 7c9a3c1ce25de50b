/**
 * Issue 19, point 1: no code may query the outer database handle while its async context holds a
 * transaction. On PGlite (one connection) such a statement waits for the transaction that waits for
 * it, and the whole server stops answering; the guard in db/client.ts makes it fail at once instead,
 * on both drivers and for every user of the client (Drizzle and pg-boss's PGlite adapter).
 */
import { eq } from 'drizzle-orm';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite } from '../../src/server/db/client';
import { tenants } from '../../src/server/db/schema';
import { OuterDatabaseInTransactionError } from '../../src/server/db/transactionGuard';
import { queueConnection } from '../../src/server/jobs/queueDatabase';
import { freshPostgresDatabase, migratedPglite } from '../fixtures/testServer';

const postgresUrl = process.env.TEST_DATABASE_URL;
/**
 * `npm test` runs the integration suite twice: on PGlite, then with TEST_DATABASE_URL. Each pass
 * checks the guard on its own driver (the second would only repeat PGlite's cases).
 */
const kind = postgresUrl ? 'postgres' : 'pglite';

/** The guard's error, thrown by the driver or wrapped by Drizzle as the cause of its "Failed query". */
const isGuardError = (error: unknown): boolean => {
  for (let current = error; current instanceof Error; current = current.cause) if (current instanceof OuterDatabaseInTransactionError) return true;
  return false;
};

describe(`the transaction guard on ${kind}`, () => {
  // One database for the cases: each writes rows of its own, and each checks the database still
  // answers after the guard refused something, which a shared one shows as well.
  let handle: DatabaseHandle;
  let drop = async () => {};
  beforeAll(async () => {
    if (kind === 'pglite') {
      handle = await openPglite(undefined, undefined, await migratedPglite());
    } else {
      const fresh = await freshPostgresDatabase(postgresUrl!);
      handle = fresh.handle;
      drop = fresh.drop;
    }
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await drop();
  });

  const tenantNamed = async (subdomain: string) => (await handle.db.select().from(tenants).where(eq(tenants.subdomain, subdomain)))[0];

  it('fails a statement on the outer handle inside a transaction at once, rolls the transaction back, and the database still answers', async () => {
    const { db } = handle;
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(tenants).values({ subdomain: 'inside', name: 'Inside' });
        // eslint-disable-next-line local/no-outer-handle-in-transaction -- the mistake under test
        await db.select().from(tenants).where(eq(tenants.subdomain, 'inside'));
      }),
    ).rejects.toSatisfy(isGuardError);
    expect(await tenantNamed('inside')).toBeUndefined();
    await db.insert(tenants).values({ subdomain: 'after', name: 'After' });
    expect(await tenantNamed('after')).toMatchObject({ name: 'After' });
  });

  it('fails a transaction opened on the outer handle inside another, and lets savepoints of the transaction through', async () => {
    const { db } = handle;
    // eslint-disable-next-line local/no-outer-handle-in-transaction -- the mistake under test
    await expect(db.transaction(async () => db.transaction(async (inner) => inner.select().from(tenants)))).rejects.toSatisfy(isGuardError);
    await db.transaction(async (tx) => {
      await tx.transaction(async (savepoint) => {
        await savepoint.insert(tenants).values({ subdomain: 'saved', name: 'Saved' });
      });
    });
    expect(await tenantNamed('saved')).toMatchObject({ name: 'Saved' });
  });

  it('lets work a transaction started use the outer handle once the transaction has ended', async () => {
    const { db } = handle;
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let later: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.insert(tenants).values({ subdomain: 'started', name: 'Started' });
      // Registered inside the transaction, so it carries the transaction's async context along; it runs after.
      // eslint-disable-next-line local/no-outer-handle-in-transaction -- runs once the transaction has ended
      later = gate.then(() => db.select().from(tenants).where(eq(tenants.subdomain, 'started')));
    });
    openGate();
    expect(await later).toEqual([expect.objectContaining({ name: 'Started' })]);
  });

  it.runIf(kind === 'pglite')("guards pg-boss's PGlite adapter, which shares the one connection", async () => {
    const { db } = handle;
    const queue = queueConnection(db).db!;
    await expect(db.transaction(async () => queue.executeSql('select 1', []))).rejects.toSatisfy(isGuardError);
    expect((await queue.executeSql('select 1 as one', [])).rows).toEqual([{ one: 1 }]);
  });
});

// The rule reads no database: the PGlite pass runs it.
describe.skipIf(postgresUrl)('the lint rule local/no-outer-handle-in-transaction', () => {
  const lint = async (code: string) => {
    // The probe is in no tsconfig: lint it without the type-aware rules.
    const [result] = await new ESLint({ overrideConfig: tseslint.configs.disableTypeChecked }).lintText(code, {
      filePath: 'src/server/domains/lintProbe/service.ts',
    });
    return result!.messages.filter((message) => message.ruleId === 'local/no-outer-handle-in-transaction').map((message) => message.line);
  };

  it('refuses the handle a transaction was opened on inside its callback, and nothing else', async () => {
    const code = [
      "import type { Database } from '../db/client';",
      'export async function probe(db: Database, deps: { db: Database; mail: unknown }, send: (value: unknown) => void) {',
      '  await db.transaction(async (tx) => send(await db.select().from(tx as never)));',
      '  await deps.db.transaction(async (tx) => { send(deps.db); send(deps.mail); send(tx); });',
      '  await db.transaction(async (tx) => tx.transaction(async (savepoint) => send(savepoint)));',
      '  await db.transaction(async (tx) => ((db: unknown) => send(db))(tx));',
      '}',
    ].join('\n');
    expect(await lint(code)).toEqual([3, 4]);
  }, 30_000);
});
