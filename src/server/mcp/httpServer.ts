import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface ServedMcp {
  /** The streamable HTTP endpoint, e.g. http://127.0.0.1:54321/mcp */
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Default `/mcp`. */
  path?: string;
  /** Whether a request's headers carry what the server wants (a secret); refused with 401 otherwise. */
  authorize?: (headers: IncomingHttpHeaders) => boolean;
}

/**
 * Serves an MCP server over streamable HTTP on a free port of 127.0.0.1 only, statelessly (a new
 * server and transport per request, as the SDK's stateless example does): the demo MCP server and
 * the tests' fixtures. Requests naming another Host are refused (DNS rebinding).
 */
export async function serveMcpOnLoopback(build: () => McpServer, { path = '/mcp', authorize }: ServeOptions = {}): Promise<ServedMcp> {
  let host = '';
  const http = createServer((request, response) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      response.writeHead(404).end();
      return;
    }
    if (authorize && !authorize(request.headers)) {
      response.writeHead(401).end();
      return;
    }
    if (request.method !== 'POST') {
      // No server-initiated stream and no sessions to end: only POST carries messages.
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = build();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts: [host],
    });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  return {
    url: `http://${host}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
