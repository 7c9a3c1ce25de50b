import { eq } from 'drizzle-orm';
import type { Queryable } from './client';
import { tenants } from './schema';

/**
 * Row lock on the tenant for the rest of the transaction. Decisions that read then write the
 * tenant's state (credit reservations, the single active announcement) queue behind it, on
 * PostgreSQL across server processes too.
 */
export async function lockTenant(q: Queryable, tenantId: number): Promise<void> {
  await q.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for('update');
}
