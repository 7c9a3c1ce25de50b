import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/server/db/client';
import { tenants } from '../../src/server/db/schema';
import { freshPostgresDatabase } from '../fixtures/testServer';

/**
 * On PostgreSQL every Drizzle statement runs as a named prepared statement of its connection
 * (db/client.ts). The same statement text with other values, transactions, savepoints and a failed
 * statement inside a transaction must behave as they did with unnamed statements.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
let handle: DatabaseHandle;

beforeAll(async () => {
  if (!adminUrl) return;
  database = await freshPostgresDatabase(adminUrl);
  handle = database.handle;
});
afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

const names = async () => (await handle.db.select({ name: tenants.name }).from(tenants).orderBy(tenants.name)).map((row) => row.name);

describe.skipIf(!adminUrl)('prepared statements on PostgreSQL', () => {
  it('run one statement text with many values, many times over the pool, each with its own result', async () => {
    await handle.db.insert(tenants).values(['alpha', 'beta', 'gamma'].map((subdomain) => ({ subdomain, name: subdomain.toUpperCase() })));
    const lookups = Array.from({ length: 60 }, (_, i) => ['alpha', 'beta', 'gamma', 'none'][i % 4]!);
    const found = await Promise.all(
      lookups.map(async (subdomain) => (await handle.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.subdomain, subdomain)))[0]?.name ?? null),
    );
    expect(found).toEqual(lookups.map((subdomain) => (subdomain === 'none' ? null : subdomain.toUpperCase())));
  });

  it('keep transactions and savepoints atomic, and a failed statement rolls its transaction back', async () => {
    await handle.db.transaction(async (tx) => {
      await tx.insert(tenants).values({ subdomain: 'kept', name: 'KEPT' });
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(tenants).values({ subdomain: 'inner', name: 'INNER' });
          throw new Error('undo the savepoint');
        }),
      ).rejects.toThrow('undo the savepoint');
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(tenants).values({ subdomain: 'lost', name: 'LOST' });
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow();
    expect(await names()).toEqual(['ALPHA', 'BETA', 'GAMMA', 'KEPT']);
  });
});
