import {
  createMcpServer,
  deleteMcpServer,
  listAdminMcpServers,
  listMcpServerTools,
  refreshMcpServer,
  updateMcpServer,
  updateMcpTool,
} from '../../../shared/api/admin/mcpServers';
import { listPickableTools } from '../../../shared/api/tools';
import * as mcp from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** The console's MCP servers and their tools (issue 24), and the tools a chatbot's editor may pick; the demo's server is brought up to date when the app is ready. */
export const mcpServerRoutes = domainRoutes('mcpServers', (app, deps) => {
  const { db } = deps;
  registerEndpoint(app, listAdminMcpServers, async ({ tenant, query }) => mcp.listServers(db, tenant.id, query));
  registerEndpoint(app, createMcpServer, async ({ tenant, body, requireMember }) => mcp.createServer(deps, tenant.id, requireMember(), body));
  registerEndpoint(app, updateMcpServer, async ({ tenant, params, body, requireMember }) =>
    mcp.updateServer(deps, tenant.id, requireMember(), params.id, body),
  );
  registerEndpoint(app, refreshMcpServer, async ({ tenant, params, requireMember }) => mcp.refreshServer(deps, tenant.id, requireMember(), params.id));
  registerEndpoint(app, deleteMcpServer, async ({ tenant, params, requireMember }) => mcp.deleteServer(db, tenant.id, requireMember(), params.id));
  registerEndpoint(app, listMcpServerTools, async ({ tenant, params }) => mcp.listTools(db, tenant.id, params.id));
  registerEndpoint(app, updateMcpTool, async ({ tenant, params, body, requireMember }) =>
    mcp.updateTool(db, tenant.id, requireMember(), params.id, params.toolId, body),
  );
  // The Studio's tool picker (member access): what the caller may give a chatbot.
  registerEndpoint(app, listPickableTools, async ({ requireMember }) => ({
    items: (await mcp.pickableMcpTools(db, requireMember())).map((tool) => ({
      id: tool.id,
      name: tool.name,
      description: tool.description,
      server_name: tool.server.name,
      is_sensitive: tool.isSensitive,
    })),
  }));

  const { demoMcp } = deps;
  if (demoMcp) {
    app.addHook('onReady', async () => {
      // The demo's tools are a convenience: a failure is logged (and kept on the row), never fatal.
      await mcp.syncDemoMcpServer(deps, demoMcp).catch((error: unknown) => deps.log.warn({ err: error }, 'demo MCP server not registered'));
    });
  }
});
