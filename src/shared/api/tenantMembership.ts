import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const planSchema = z.object({
  id: z.number().int(),
  ko_name: z.string(),
  en_name: z.string(),
  krw_month_price: z.number().int(),
  /** Monthly credits of the plan. */
  credit: z.number(),
  /** Null: the plan sets no limit. */
  member_limit: z.number().int().nullable(),
  invitation_limit: z.number().int().nullable(),
});

/** The tenant's plan and subscription (spec §3 Membership, §7 `GET /tenants/membership/`). */
export const tenantMembershipSchema = z.object({
  plan: planSchema.nullable(),
  plan_status: z.enum(['active', 'inactive']),
  /** The plan taking over at the next payment date, when a change is pending. */
  next_plan: planSchema.nullable(),
  membership_status: z.enum(['active', 'cancelled', 'ended']).nullable(),
  price: z.number().int().nullable(),
  currency: z.string().nullable(),
  next_payment_date: z.string().nullable(),
  member_count: z.number().int(),
});
export type TenantMembership = z.infer<typeof tenantMembershipSchema>;

export const getTenantMembership = defineEndpoint({
  method: 'GET',
  path: '/tenants/membership/',
  access: 'member',
  errors: {},
  response: tenantMembershipSchema,
  summary: "The tenant's plan, pending plan change, next payment and seats in use",
  tags: ['tenants'],
});
