import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, isoDateTime, pageQuerySchema, paginatedSchema } from './common';
import { DEFAULT_LIST_PAGE_SIZE } from '../domain/pagination';
import { CREDIT_SCOPES, DEPLETION_KINDS } from '../domain/credits';

export const depletionKindSchema = z.enum(DEPLETION_KINDS);

/** `details` of the 402 `credits_depleted` error: which of the five messages applies. */
export const creditsDepletedDetailsSchema = z.object({ depletion: depletionKindSchema });

/**
 * A member's credits this month (spec §4 warnings, §9). `quota`, `usage` and `remaining` are those
 * of the limit that runs out first (`limited_by`; null when nothing limits the member, then `usage`
 * is the member's own). Figures are exact; screens round them down (`displayCredits`).
 */
export const memberUsageSchema = z.object({
  period_start: z.string().describe('YYYY-MM-DD, first day of the month'),
  period_end: z.string().describe('YYYY-MM-DD, last day of the month'),
  limited_by: z.enum(CREDIT_SCOPES).nullable(),
  quota: z.number().nullable(),
  usage: z.number(),
  remaining: z.number().nullable(),
  percentage_used: z.number().nullable(),
  depleted: z.boolean(),
  /** The message that applies when `limited_by` runs out (null without a limit). */
  depletion_kind: depletionKindSchema.nullable(),
  /** The member's own paid answers this month and their average cost. */
  message_count: z.number().int(),
  average_message_cost: z.number().nullable(),
  estimated_messages_left: z.number().int().nullable(),
  models: z.array(z.object({ model_name: z.string(), messages: z.number().int(), credits: z.number() })),
});
export type MemberUsage = z.infer<typeof memberUsageSchema>;

export const getMemberUsage = defineEndpoint({
  method: 'GET',
  path: '/members/:id/usage/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  response: memberUsageSchema,
  summary: "A member's credit usage this month (only oneself unless admin)",
  tags: ['members'],
});

/** The purchase behind a bought credit entry (spec §3 Credit entry `transaction`); null for plan credits and grants. */
export const creditTransactionSchema = z.object({
  id: z.number().int(),
  price: z.number().int(),
  currency: z.string(),
  receipt_url: z.string().nullable(),
  created_at: isoDateTime,
});

/**
 * Spec §3 Credit entry: one grant of the tenant's pool (a month's plan credit, a purchase, an
 * operator's grant) with its validity period and how much of it was used (rounded down). Grants are
 * used up in the order they lapse; an expired grant's usage is what was used before it lapsed.
 */
export const creditEntrySchema = z.object({
  id: z.number().int(),
  quota: z.number(),
  usage: z.number().int(),
  created_at: isoDateTime,
  usage_start_date: z.string().nullable(),
  usage_end_date: z.string().nullable(),
  ko_name: z.string().nullable(),
  en_name: z.string().nullable(),
  /** Set once the validity ended and the unused rest was taken back. */
  expired: z.boolean(),
  /** Shown to administrators and to individuals (who pay for themselves); null otherwise. */
  transaction: creditTransactionSchema.nullable(),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

export const listCredits = defineEndpoint({
  method: 'GET',
  path: '/credits/',
  access: 'member',
  errors: {},
  query: pageQuerySchema(DEFAULT_LIST_PAGE_SIZE),
  response: paginatedSchema(creditEntrySchema),
  summary: "The member's credit entries, newest first (spec §3 Credit entry): an individual's own plan purchases, else the tenant pool's",
  tags: ['credits'],
});
