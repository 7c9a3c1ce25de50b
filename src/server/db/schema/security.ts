/** Restricted words and PII settings (the input guard). */
import { integer, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from './columns';
import { tenantId, tenants } from './tenants';

export const piiActionEnum = pgEnum('pii_action', ['off', 'block', 'mask']);

export const restrictedWords = pgTable(
  'restricted_words',
  {
    id: id(),
    tenantId: tenantId(),
    word: text('word').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('restricted_words_word_idx').on(t.tenantId, t.word)],
);

export const piiSettings = pgTable('pii_settings', {
  tenantId: integer('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  phone: piiActionEnum('phone').notNull().default('off'),
  email: piiActionEnum('email').notNull().default('off'),
  residentNumber: piiActionEnum('resident_number').notNull().default('off'),
  creditCard: piiActionEnum('credit_card').notNull().default('off'),
  /** E.164 numbers with a country code (ours, issue 21): the spec's `phone` is the 11-digit Korean mobile. */
  internationalPhone: piiActionEnum('international_phone').notNull().default('off'),
  updatedAt: updatedAt(),
});
