import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { members } from '../db/schema';

/** Sets the monthly credit limit of members of the tenant (ids of other tenants are skipped); returns the ids changed. */
export async function setCreditQuota(db: Database, tenantId: number, memberIds: number[], creditQuota: number | null): Promise<number[]> {
  const updated = await db
    .update(members)
    .set({ creditQuota, updatedAt: new Date() })
    .where(and(eq(members.tenantId, tenantId), inArray(members.id, memberIds)))
    .returning({ id: members.id });
  return updated.map((row) => row.id);
}
