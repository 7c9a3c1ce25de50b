import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema, idSchema, idTextSchema, isoDateTime, okSchema, pageQuerySchema, paginatedSchema } from '../common';
import { permissionGroupSchema } from './llmModels';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';
import { HTTP_HEADER_NAME, HTTP_HEADER_VALUE, MCP_CONNECTION_ERRORS, MCP_RESERVED_HEADERS, MCP_SECRET_KINDS } from '../../domain/mcp';

/**
 * The tenant's MCP servers (issue 24): the admin registers a streamable HTTP endpoint, the server
 * lists its tools on every save and refresh, and the admin switches tools on for member groups.
 * The secret is write-only like the SSO secrets: answers carry `has_secret`, an empty secret in an
 * update keeps the stored one.
 */
export const mcpSecretKindSchema = z.enum(MCP_SECRET_KINDS);
export const mcpConnectionErrorSchema = z.enum(MCP_CONNECTION_ERRORS);

export const mcpServerBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    url: z
      .string()
      .trim()
      .max(2000)
      .pipe(z.url({ protocol: /^https?$/ })),
    description: z.string().trim().max(1000).default(''),
    secret_kind: mcpSecretKindSchema.default('none'),
    secret_header_name: z.string().trim().max(100).default(''),
    secret: z.string().max(4000).regex(HTTP_HEADER_VALUE, 'No line breaks or control characters').default(''),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.secret_kind !== 'header') return;
    const name = body.secret_header_name;
    if (!HTTP_HEADER_NAME.test(name)) context.addIssue({ code: 'custom', path: ['secret_header_name'], message: 'A header name (letters, digits and dashes)' });
    else if (MCP_RESERVED_HEADERS.includes(name.toLowerCase())) {
      context.addIssue({ code: 'custom', path: ['secret_header_name'], message: 'A header the connection sets itself' });
    }
  });
export type McpServerBody = z.input<typeof mcpServerBodySchema>;

export const mcpConnectionFailureSchema = z.object({
  code: mcpConnectionErrorSchema,
  /** What went wrong, in English, for the admin (never the secret). */
  message: z.string(),
  at: isoDateTime,
});

export const adminMcpServerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  description: z.string(),
  secret_kind: mcpSecretKindSchema,
  secret_header_name: z.string(),
  has_secret: z.boolean(),
  /** Tools the server lists now (gone ones not counted), and how many of them are switched on. */
  tool_count: z.number().int(),
  enabled_tool_count: z.number().int(),
  last_connected_at: isoDateTime.nullable(),
  /** The last connection's failure; null once a connection succeeded after it. */
  last_error: mcpConnectionFailureSchema.nullable(),
});
export type AdminMcpServer = z.infer<typeof adminMcpServerSchema>;

export const adminMcpToolSchema = z.object({
  id: z.number().int(),
  mcp_server_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  is_enabled: z.boolean(),
  is_sensitive: z.boolean(),
  /** The server no longer lists it: kept with its settings, offered to nobody until it comes back. */
  is_gone: z.boolean(),
  member_group_ids: z.array(z.number().int()),
});
export type AdminMcpTool = z.infer<typeof adminMcpToolSchema>;

/** Connection failures answer 424 (the server's row keeps the failure; `details.mcp_server_id` names it after a create). */
const CONNECTION_FAILURES = { 424: ['mcp_unreachable', 'mcp_timeout', 'mcp_unauthorized', 'mcp_protocol_error'] } as const;

export const listAdminMcpServers = defineEndpoint({
  method: 'GET',
  path: '/admin/mcp-servers/',
  access: 'admin',
  errors: {},
  query: pageQuerySchema(DEFAULT_LIST_PAGE_SIZE),
  response: paginatedSchema(adminMcpServerSchema),
  summary: "The tenant's MCP servers with their tool counts and last connection error (secrets never shown)",
  tags: ['admin'],
});

export const createMcpServer = defineEndpoint({
  method: 'POST',
  path: '/admin/mcp-servers/',
  access: 'admin',
  errors: { 409: ['mcp_server_name_taken'], 422: ['destination_refused'], ...CONNECTION_FAILURES },
  body: mcpServerBodySchema,
  response: adminMcpServerSchema,
  summary:
    'Register an MCP server (streamable HTTP) and list its tools. 422 destination_refused: an address the server may not connect to (nothing saved); 424: saved, but the connection failed (details.mcp_server_id)',
  tags: ['admin'],
});

export const updateMcpServer = defineEndpoint({
  method: 'PUT',
  path: '/admin/mcp-servers/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 409: ['mcp_server_name_taken'], 422: ['destination_refused'], ...CONNECTION_FAILURES },
  params: idParamsSchema,
  body: mcpServerBodySchema,
  response: adminMcpServerSchema,
  summary: "Change an MCP server's settings (an empty secret keeps the stored one) and list its tools again; 422 and 424 as when adding",
  tags: ['admin'],
});

export const refreshMcpServer = defineEndpoint({
  method: 'POST',
  path: '/admin/mcp-servers/:id/refresh/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['destination_refused'], ...CONNECTION_FAILURES },
  params: idParamsSchema,
  response: adminMcpServerSchema,
  summary: 'List the tools again: new ones are added switched off, ones no longer listed are marked gone (424 when the connection fails)',
  tags: ['admin'],
});

export const deleteMcpServer = defineEndpoint({
  method: 'DELETE',
  path: '/admin/mcp-servers/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Remove an MCP server and its tools',
  tags: ['admin'],
});

export const listMcpServerTools = defineEndpoint({
  method: 'GET',
  path: '/admin/mcp-servers/:id/tools/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: z.object({ items: z.array(adminMcpToolSchema), groups: z.array(permissionGroupSchema) }),
  summary: "A server's tools (at most MCP_MAX_TOOLS) with their switches and groups, and the tenant's groups to choose from",
  tags: ['admin'],
});

export const updateMcpToolBodySchema = z
  .object({
    is_enabled: z.boolean().optional(),
    is_sensitive: z.boolean().optional(),
    /** The groups that may use it, all of them (replaces the stored set). */
    member_group_ids: z.array(idSchema).max(500).optional(),
  })
  .strict();

export const updateMcpTool = defineEndpoint({
  method: 'PATCH',
  path: '/admin/mcp-servers/:id/tools/:toolId/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: z.object({ id: idTextSchema, toolId: idTextSchema }),
  body: updateMcpToolBodySchema,
  response: adminMcpToolSchema,
  summary: 'Switch a tool on or off, mark it sensitive, or set the member groups that may use it (404 for a group not of the tenant)',
  tags: ['admin'],
});
