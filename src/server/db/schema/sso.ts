/** SSO platforms a tenant connects and the emails its whitelist admits. */
import type { SsoPlatformConfig } from '../../../shared/domain/sso';
import { integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt } from './columns';
import { tenantId } from './tenants';

export const ssoPlatforms = pgTable('sso_platforms', {
  id: id(),
  tenantId: tenantId(),
  ssoPlatformName: text('sso_platform_name').notNull(),
  /** Kind and connection settings, secrets included (never sent to clients unmasked). */
  config: jsonb('config').$type<SsoPlatformConfig>().notNull(),
  createdAt: createdAt(),
});

export const ssoWhitelist = pgTable(
  'sso_whitelist',
  {
    id: id(),
    tenantId: tenantId(),
    ssoPlatformId: integer('sso_platform_id').references(() => ssoPlatforms.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sso_whitelist_email_idx').on(t.tenantId, t.email)],
);
