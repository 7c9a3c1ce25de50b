/** Developers' API keys and the chatbots each may call. */
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { chatbots } from './chatbots';
import { id, createdAt } from './columns';
import { memberId } from './members';
import { tenantId } from './tenants';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    tenantId: tenantId(),
    memberId: memberId(),
    name: text('name').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    /** SHA-256 (hex) of the whole key: the key itself is shown once, at creation, and never stored. */
    keyHash: text('key_hash').notNull().unique(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Null: never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_member_idx').on(t.tenantId, t.memberId, t.createdAt)],
);

/** The chatbots a key may call (at least one); a chatbot deleted later leaves the key's list. */
export const apiKeyChatbots = pgTable(
  'api_key_chatbots',
  {
    tenantId: tenantId(),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.chatbotId] })],
);
