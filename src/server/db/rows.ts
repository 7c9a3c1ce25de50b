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
