/** Inquiries sent from the contact modal. */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { members } from './members';
import { tenantId } from './tenants';

/** What members wrote in the contact modal (spec §2), kept whether or not the mail to support went out. */
export const inquiries = pgTable(
  'inquiries',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: integer('member_id').references(() => members.id, { onDelete: 'set null' }),
    inquiry: text('inquiry').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    /** When the mail to the support address was written to the mail outbox; null when no address was set. */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('inquiries_tenant_idx').on(t.tenantId, t.createdAt)],
);
