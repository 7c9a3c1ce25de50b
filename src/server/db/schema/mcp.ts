/** MCP servers a tenant registers, the tools each listed, and the member groups that may use each tool (issue 24). */
import type { McpConnectionError, McpSecretKind } from '../../../shared/domain/mcp';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt } from './columns';
import { chatbots } from './chatbots';
import { memberGroups } from './members';
import { tenantId } from './tenants';

export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    /** The streamable HTTP endpoint. */
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    secretKind: text('secret_kind').$type<McpSecretKind>().notNull().default('none'),
    /** The header the secret goes in when `secret_kind` is `header`. */
    secretHeaderName: text('secret_header_name').notNull().default(''),
    /** Write-only like the SSO client secrets: never in an answer or the audit log. */
    secret: text('secret').notNull().default(''),
    /** When the tools were last listed; null before the first successful connection. */
    lastConnectedAt: timestamp('last_connected_at', { withTimezone: true }),
    /** The last connection's failure, cleared by the next success (the console shows it). */
    lastErrorCode: text('last_error_code').$type<McpConnectionError>(),
    lastErrorMessage: text('last_error_message'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('mcp_servers_name_idx').on(t.tenantId, t.name)],
);

export const mcpTools = pgTable(
  'mcp_tools',
  {
    id: id(),
    tenantId: tenantId(),
    mcpServerId: integer('mcp_server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    inputSchema: jsonb('input_schema').$type<Record<string, unknown>>().notNull().default({}),
    /** Off until an admin switches it on: a newly listed tool is nobody's. */
    isEnabled: boolean('is_enabled').notNull().default(false),
    /** The audit log keeps its calls' arguments out (issue 24 "Audit"). */
    isSensitive: boolean('is_sensitive').notNull().default(false),
    /**
     * The server no longer lists it: kept (with its switches and groups, which come back with it)
     * but never offered; docs/decisions "MCP servers".
     */
    isGone: boolean('is_gone').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('mcp_tools_server_name_idx').on(t.mcpServerId, t.name), index('mcp_tools_tenant_idx').on(t.tenantId)],
);

/** Like model_group_permissions: a row per group that may use the tool (no row: not allowed). */
export const mcpToolGroupPermissions = pgTable(
  'mcp_tool_group_permissions',
  {
    tenantId: tenantId(),
    mcpToolId: integer('mcp_tool_id')
      .notNull()
      .references(() => mcpTools.id, { onDelete: 'cascade' }),
    memberGroupId: integer('member_group_id')
      .notNull()
      .references(() => memberGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.mcpToolId, t.memberGroupId] }), index('mcp_tool_group_permissions_group_idx').on(t.memberGroupId)],
);

/**
 * The tools a chatbot may call (picked in the Studio; a default chatbot's by an admin). A member
 * chatting with it gets only those their own groups may use, checked at every call.
 */
export const chatbotTools = pgTable(
  'chatbot_tools',
  {
    tenantId: tenantId(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    mcpToolId: integer('mcp_tool_id')
      .notNull()
      .references(() => mcpTools.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.mcpToolId] }), index('chatbot_tools_tool_idx').on(t.mcpToolId)],
);
