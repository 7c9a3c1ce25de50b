/**
 * Every entity of spec §3, one file per domain. Each table but `tenants` carries `tenant_id`, and
 * every service query filters on it, so one database serves many tenants and a foreign id simply
 * is not found. Tables not used yet exist so later features add behaviour rather than reshape the data.
 *
 * Import tables from here (`db/schema`), not from the domain files: the foreign keys between
 * domains make the files import each other, which is safe because a reference is a function that
 * runs after every file has loaded. drizzle-kit reads this file.
 */
export { languageEnum } from './columns';
export { planStatusEnum, signupApprovalEnum, tenants } from './tenants';
export * from './billing';
export * from './members';
export * from './auth';
export * from './signup';
export * from './sso';
export * from './chatbots';
export * from './files';
export * from './chat';
export * from './feedback';
export * from './credits';
export * from './security';
export * from './apiKeys';
export * from './tasks';
export * from './announcements';
export * from './inquiries';
export * from './auditLog';
export * from './errorLogs';
export * from './infrastructure';
export * from './prompts';
export * from './mcp';
