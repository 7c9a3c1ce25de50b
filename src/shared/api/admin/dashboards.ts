import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { monthSchema } from './credits';

/** Spec §7 admin dashboard cards, for the month of the server's clock. */
export const dashboardSchema = z.object({
  month: monthSchema,
  member_count: z.number().int(),
  /** Members who had at least one answer this month. */
  monthly_active_users: z.number().int(),
  /** Answers this month. */
  monthly_messages: z.number().int(),
  public_chatbot_count: z.number().int(),
  private_chatbot_count: z.number().int(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const getDashboard = defineEndpoint({
  method: 'GET',
  path: '/admin/dashboards/',
  access: 'admin',
  errors: {},
  response: dashboardSchema,
  summary: 'Admin console dashboard: member count, monthly active users and messages, public and private chatbots',
  tags: ['admin'],
});

export const dashboardUsageQuerySchema = z.object({ start_month: monthSchema, end_month: monthSchema });

export const dashboardUsageSchema = z.object({
  months: z.array(
    z.object({
      month: monthSchema,
      active_users: z.number().int(),
      messages: z.number().int(),
      credits: z.number(),
      new_members: z.number().int(),
    }),
  ),
});
export type DashboardUsage = z.infer<typeof dashboardUsageSchema>;

export const getDashboardUsage = defineEndpoint({
  method: 'GET',
  path: '/admin/dashboards/usage/',
  access: 'admin',
  errors: { 422: ['validation_error'] },
  query: dashboardUsageQuerySchema,
  response: dashboardUsageSchema,
  summary: 'Monthly figures from start_month to end_month (at most 24 months; 422 when the range is reversed or longer)',
  tags: ['admin'],
});
