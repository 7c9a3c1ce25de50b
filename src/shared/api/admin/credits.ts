import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idSchema, idTextSchema, pageQuerySchema, paginatedSchema } from '../common';
import { creditEntrySchema } from '../credits';
import { memberGroupQuotasSchema } from './memberGroups';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';
import { CREDIT_QUOTA_MAX, CREDIT_USAGE_GROUPINGS } from '../../domain/credits';

/** `YYYY-MM`, a credit period. */
export const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM');

/** A monthly quota in credits; null is no limit. */
const quotaSchema = z.number().min(0).max(CREDIT_QUOTA_MAX).nullable();

export const allocationGroupSchema = memberGroupQuotasSchema.extend({
  /** Credits the group used this month (exact; screens round down). */
  used: z.number(),
});

export const allocationMemberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  member_group_id: z.number().int().nullable(),
  /** The member's own override; null follows the group's member_credit_quota. */
  credit_quota: z.number().nullable(),
  /** The quota that applies: the override, else the group's per-member quota (null: none). */
  effective_quota: z.number().nullable(),
  used: z.number(),
});

export const creditAllocationQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  group_id: idTextSchema.optional(),
  search_term: z.string().trim().max(200).optional(),
});

export const creditAllocationSchema = z.object({
  period: monthSchema,
  /** The tenant's pool: what is left of all its grants (null: no limit). */
  tenant_remaining: z.number().nullable(),
  groups: z.array(allocationGroupSchema),
  members: paginatedSchema(allocationMemberSchema),
});
export type CreditAllocation = z.infer<typeof creditAllocationSchema>;

export const getCreditAllocation = defineEndpoint({
  method: 'GET',
  path: '/admin/credits/allocation/',
  access: 'admin',
  errors: {},
  query: creditAllocationQuerySchema,
  response: creditAllocationSchema,
  summary: "Monthly credit allocation: every group with its quotas and this month's use, and a page of members with theirs",
  tags: ['admin'],
});

export const creditAllocationBodySchema = z
  .object({
    groups: z
      .array(z.object({ id: idSchema, credit_quota: quotaSchema.optional(), member_credit_quota: quotaSchema.optional() }).strict())
      .max(100)
      .default([]),
    members: z
      .array(z.object({ id: idSchema, credit_quota: quotaSchema }).strict())
      .max(100)
      .default([]),
  })
  .strict()
  .refine((body) => body.groups.length + body.members.length > 0, { message: 'Nothing to change' });
export type CreditAllocationBody = z.input<typeof creditAllocationBodySchema>;

export const updateCreditAllocation = defineEndpoint({
  method: 'PUT',
  path: '/admin/credits/allocation/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['default_group_locked'] },
  body: creditAllocationBodySchema,
  response: z.object({ updated: z.number().int() }),
  summary:
    "Sets groups' monthly quotas and members' overrides in one transaction (all or none; 422 for the default group's credit info, 404 for an unknown id)",
  tags: ['admin'],
});

export const creditUsageQuerySchema = z.object({
  month: monthSchema.optional(),
  group_by: z.enum(CREDIT_USAGE_GROUPINGS).default('group'),
});

/** Spec §3 Credit usage rows, LLM: per group or member and model, input, output and web-search credits, tokens and counts. */
export const llmUsageRowSchema = z.object({
  key_id: z.number().int().nullable(),
  /** Group names, or the member's name and email (null: deleted or a test chat). */
  ko_name: z.string().nullable(),
  en_name: z.string().nullable(),
  model_name: z.string(),
  messages: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  input_credits: z.number(),
  output_credits: z.number(),
  web_search_count: z.number().int(),
  web_search_credits: z.number(),
});

/** Spec §3 Credit usage rows, image: image model, count, credits. */
export const imageUsageRowSchema = z.object({
  key_id: z.number().int().nullable(),
  ko_name: z.string().nullable(),
  en_name: z.string().nullable(),
  model_name: z.string(),
  count: z.number().int(),
  credits: z.number(),
});

export const creditUsageReportSchema = z.object({
  month: monthSchema,
  group_by: z.enum(CREDIT_USAGE_GROUPINGS),
  llm: z.array(llmUsageRowSchema),
  image: z.array(imageUsageRowSchema),
});
export type CreditUsageReport = z.infer<typeof creditUsageReportSchema>;

export const getCreditUsage = defineEndpoint({
  method: 'GET',
  path: '/admin/credits/usage/',
  access: 'admin',
  errors: {},
  query: creditUsageQuerySchema,
  response: creditUsageReportSchema,
  summary: 'Credit usage of a month (default: this one) by group or by member: LLM and image tables',
  tags: ['admin'],
});

export const listCreditPurchases = defineEndpoint({
  method: 'GET',
  path: '/admin/credits/',
  access: 'admin',
  errors: {},
  query: pageQuerySchema(DEFAULT_LIST_PAGE_SIZE),
  response: paginatedSchema(creditEntrySchema),
  summary: "Credit purchase history: the tenant pool's grants with amount, date, validity and transaction, newest first",
  tags: ['admin'],
});
