import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  type McpConnectionError,
  type McpSecretKind,
  MCP_INPUT_SCHEMA_MAX_BYTES,
  MCP_MAX_TOOLS,
  MCP_TOOL_DESCRIPTION_MAX,
  MCP_TOOL_NAME,
} from '../../shared/domain/mcp';
import type { AppDeps } from '../deps';
import { outboundRefusalOf } from '../net/outboundGuard';

/** Where an MCP server is and how its secret goes (the stored row's fields). */
export interface McpTarget {
  url: string;
  secretKind: McpSecretKind;
  secretHeaderName: string;
  secret: string;
}

/** A tool as the server stores it from a `tools/list` answer. */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a tool call answers (MCP `CallToolResult`): its content parts, and whether the tool itself failed. */
export interface McpToolResult {
  content?: Array<{ type: string; text?: string; uri?: string; resource?: { uri?: string; text?: string } }>;
  isError?: boolean;
}

export interface McpSession {
  callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<McpToolResult>;
  close(): Promise<void>;
}

/** A connection that failed, said in words an admin can act on (never the secret, never the remote body). */
export class McpConnectionFailure extends Error {
  override name = 'McpConnectionFailure';
  constructor(
    readonly code: McpConnectionError,
    message: string,
  ) {
    super(message);
  }
}

/** Errors of Node's sockets and DNS that mean nothing is there to talk to. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ERR_INVALID_URL']);

function networkCodeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 10; current = (current as { cause?: unknown }).cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  }
  return undefined;
}

/** What the SDK or the socket threw, as one of the failures the console names. */
export function classifyFailure(error: unknown, timeoutSeconds: number): McpConnectionFailure {
  if (error instanceof McpConnectionFailure) return error;
  const refusal = outboundRefusalOf(error);
  if (refusal) return new McpConnectionFailure('destination_refused', refusal.message);
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
    return new McpConnectionFailure('mcp_timeout', `No answer within ${timeoutSeconds} s.`);
  }
  if (error instanceof StreamableHTTPError && error.code !== undefined) {
    // -1: an answer that is neither JSON nor an event stream.
    if (error.code < 100) return new McpConnectionFailure('mcp_protocol_error', 'The address does not answer as an MCP server over streamable HTTP.');
    if (error.code < 400)
      return new McpConnectionFailure('mcp_protocol_error', `The address redirects (HTTP ${error.code}): register the address it redirects to.`);
    if (error.code === 401 || error.code === 403)
      return new McpConnectionFailure('mcp_unauthorized', `The server refused the request (HTTP ${error.code}): check the secret.`);
    // 404 and 405 are what a web server that is not an MCP endpoint answers.
    if (error.code === 404 || error.code === 405)
      return new McpConnectionFailure('mcp_protocol_error', `No MCP endpoint at this address (HTTP ${error.code}).`);
    return new McpConnectionFailure('mcp_unreachable', `The server answered HTTP ${error.code}.`);
  }
  const network = networkCodeOf(error);
  if (network) return new McpConnectionFailure('mcp_unreachable', `The server cannot be reached (${network}).`);
  return new McpConnectionFailure('mcp_protocol_error', 'The address does not answer as an MCP server over streamable HTTP.');
}

function headersOf(target: McpTarget): Record<string, string> {
  if (!target.secret || target.secretKind === 'none') return {};
  if (target.secretKind === 'bearer') return { authorization: `Bearer ${target.secret}` };
  return { [target.secretHeaderName]: target.secret };
}

/** Keeps what a model and the console can use of a listed tool; refuses a list that is not one. */
function toListedTools(tools: ReadonlyArray<{ name: string; description?: string; inputSchema: Record<string, unknown> }>): ListedTool[] {
  const kept: ListedTool[] = [];
  const seen = new Set<string>();
  for (const tool of tools.slice(0, MCP_MAX_TOOLS)) {
    if (!MCP_TOOL_NAME.test(tool.name) || seen.has(tool.name))
      throw new McpConnectionFailure('mcp_protocol_error', 'The server listed a tool without a usable name.');
    if (JSON.stringify(tool.inputSchema).length > MCP_INPUT_SCHEMA_MAX_BYTES) {
      throw new McpConnectionFailure('mcp_protocol_error', `The tool ${tool.name} has an input schema over ${MCP_INPUT_SCHEMA_MAX_BYTES} bytes.`);
    }
    seen.add(tool.name);
    kept.push({ name: tool.name, description: (tool.description ?? '').slice(0, MCP_TOOL_DESCRIPTION_MAX), inputSchema: tool.inputSchema });
  }
  return kept;
}

/**
 * Connects to tenants' MCP servers with the SDK's streamable HTTP client. Every request goes
 * through the outbound guard's fetch (DESIGN §5), except to the demo MCP server this process
 * started itself on loopback (`demoMcp`, docs/decisions "MCP servers"). Each connection has
 * MCP_CONNECT_TIMEOUT_SECONDS for everything (initialize and every page of the list); a chat's tool
 * calls go through `openSession`, each with the time its caller gives.
 */
export function createMcpConnector({ outbound, config, demoMcp }: Pick<AppDeps, 'outbound' | 'config' | 'demoMcp'>) {
  const timeoutSeconds = config.MCP_CONNECT_TIMEOUT_SECONDS;
  const demoOrigin = demoMcp ? new URL(demoMcp.url).origin : null;

  function fetchFor(url: URL) {
    return url.origin === demoOrigin ? fetch : outbound.fetch;
  }

  /** A client of the server at `target`, not connected yet; throws McpConnectionFailure for an address that is no URL. */
  function clientFor(target: McpTarget): { client: Client; transport: StreamableHTTPClientTransport } {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new McpConnectionFailure('mcp_unreachable', 'The address is not a URL.');
    }
    const client = new Client({ name: 'chatbot-platform', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(url, {
      fetch: fetchFor(url),
      requestInit: { headers: headersOf(target) },
      // Short exchanges: no reconnecting to a stream that ended.
      reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
    });
    return { client, transport };
  }

  /** The tools the server lists now (every page, at most MCP_MAX_TOOLS); throws McpConnectionFailure. */
  async function listTools(target: McpTarget): Promise<ListedTool[]> {
    const { client, transport } = clientFor(target);
    const deadline = Date.now() + timeoutSeconds * 1000;
    const left = () => ({ timeout: Math.max(1, deadline - Date.now()) });
    try {
      await client.connect(transport, left());
      const tools: Parameters<typeof toListedTools>[0][number][] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, left());
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length < MCP_MAX_TOOLS);
      return toListedTools(tools);
    } catch (error) {
      throw classifyFailure(error, timeoutSeconds);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /**
   * A connection for the tool calls of one chat answer (connected at the first call, closed with
   * the answer). Each call gets `timeoutMs` in all, connecting included, and stops when `signal`
   * aborts; what it throws is the SDK's or the socket's error (classifyFailure names it).
   */
  function openSession(target: McpTarget): McpSession {
    let connected: Promise<Client> | null = null;
    return {
      async callTool(name, args, { signal, timeoutMs }) {
        const deadline = Date.now() + timeoutMs;
        const options = () => ({ signal, timeout: Math.max(1, deadline - Date.now()) });
        connected ??= (async () => {
          const { client, transport } = clientFor(target);
          await client.connect(transport, options());
          return client;
        })();
        // A failed connection is tried again by the next call rather than kept.
        const client = await connected.catch((error: unknown) => {
          connected = null;
          throw error;
        });
        return (await client.callTool({ name, arguments: args }, undefined, options())) as McpToolResult;
      },
      async close() {
        const client = await connected?.catch(() => null);
        await client?.close().catch(() => undefined);
      },
    };
  }

  return { listTools, openSession };
}

export type McpConnector = ReturnType<typeof createMcpConnector>;
