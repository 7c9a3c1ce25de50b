/** Announcements shown to members. */
import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from './columns';
import { tenantId } from './tenants';

export const announcements = pgTable(
  'announcements',
  {
    id: id(),
    tenantId: tenantId(),
    content: text('content').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('announcements_tenant_idx').on(t.tenantId, t.createdAt)],
);
