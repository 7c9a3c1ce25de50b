import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { announcements, apiKeys, auditLog, chatbots, llmModels, members, sessionMessages, sessions, tenants } from './schema';

/**
 * The row types services pass around, next to the schema they come from. Add one here when a
 * second file needs it instead of writing `typeof table.$inferSelect` again.
 */
export type TenantRow = typeof tenants.$inferSelect;
export type MemberRow = typeof members.$inferSelect;
export type LlmModelRow = typeof llmModels.$inferSelect;
export type ChatbotRow = typeof chatbots.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type SessionMessageRow = typeof sessionMessages.$inferSelect;
export type AnnouncementRow = typeof announcements.$inferSelect;

/** Rows of a raw `execute`, whichever driver ran it (postgres-js answers an array, PGlite `{rows}`). */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);
export type AuditLogRow = typeof auditLog.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** A json value of a raw statement (the drivers differ in whether they parse it). */
export const fromJson = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** A table's row from the `row_to_json` of it in a raw statement, mapped as Drizzle maps a selected row. */
export function rowFromJson<T extends PgTable>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = json[column.name];
      return [key, value == null ? null : column.mapFromDriverValue(value)];
    }),
  ) as T['$inferSelect'];
}
