/** The prompt library (issue 23): tenant-wide prompts (no member) and each member's own. */
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { id, createdAt, updatedAt } from './columns';
import { members } from './members';
import { tenantId } from './tenants';

export const prompts = pgTable(
  'prompts',
  {
    id: id(),
    tenantId: tenantId(),
    /** Null: a tenant prompt, managed by admins; else the member's own, gone with them. */
    memberId: integer('member_id').references(() => members.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One name per scope, letter case ignored; the indexes also serve the lists (tenant's, member's).
  (t) => [
    uniqueIndex('prompts_tenant_name_idx')
      .on(t.tenantId, sql`lower(${t.name})`)
      .where(sql`${t.memberId} is null`),
    uniqueIndex('prompts_member_name_idx')
      .on(t.tenantId, t.memberId, sql`lower(${t.name})`)
      .where(sql`${t.memberId} is not null`),
  ],
);
