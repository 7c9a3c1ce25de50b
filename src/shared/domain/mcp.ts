/**
 * MCP servers a tenant's admins register (issue 24): how a server's secret is sent, what a failed
 * connection is called, and the limits of what the server stores of a server's tool list.
 */

/** How the optional secret goes with every request: none, `Authorization: Bearer …`, or a header the admin names. */
export const MCP_SECRET_KINDS = ['none', 'bearer', 'header'] as const;
export type McpSecretKind = (typeof MCP_SECRET_KINDS)[number];

/**
 * Why the last connection failed, kept on the server for the console: the host is one the server
 * may not reach (outbound guard), nothing answered, no answer within the time limit, the server
 * refused the secret (401/403), or what answered does not speak MCP over streamable HTTP.
 */
export const MCP_CONNECTION_ERRORS = ['destination_refused', 'mcp_unreachable', 'mcp_timeout', 'mcp_unauthorized', 'mcp_protocol_error'] as const;
export type McpConnectionError = (typeof MCP_CONNECTION_ERRORS)[number];

/** At most this many tools are kept of one server's list (the rest are left out and said so in the error). */
export const MCP_MAX_TOOLS = 100;
/** Tool names as the MCP specification and model providers take them. */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
export const MCP_TOOL_DESCRIPTION_MAX = 2000;
/** A tool's input schema larger than this (JSON text) is refused as not a usable tool list. */
export const MCP_INPUT_SCHEMA_MAX_BYTES = 32_768;

/** Headers the transport itself sets: a secret header may not take their place. */
export const MCP_RESERVED_HEADERS = [
  'accept',
  'content-type',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
];
/** An HTTP header name (RFC 9110 token). */
export const HTTP_HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** A header value: visible ASCII, spaces and tabs (no line breaks, which would start another header). */
export const HTTP_HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * A chatbot's tools in the chat (issue 24 "Chatbots with tools", "The chat"): how many model steps
 * one answer may take (each step may call tools), how many tools a chatbot may carry, and what a
 * tool call's short result shown in the answer keeps.
 */
export const TOOL_STEP_LIMIT = { min: 1, max: 10, default: 5 } as const;
export const CHATBOT_TOOLS_MAX = 20;
/** The result a tool call shows in the answer and keeps in the history: its first characters. */
export const TOOL_RESULT_PREVIEW_MAX = 2000;

/**
 * Where a tool call stands: `running` until it ends, then `ok`, `error` (the tool said it failed,
 * or its server could not be reached), `timeout` (the per-call limit), `refused` (the member's
 * groups may not use it now, or it was switched off: checked at every call) or `stopped` (the
 * member stopped the answer while it ran). The model is told each outcome as the tool's result.
 */
export const TOOL_CALL_STATUSES = ['running', 'ok', 'error', 'timeout', 'refused', 'stopped'] as const;
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];
