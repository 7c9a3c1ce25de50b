import { type SQL, and, asc, count, desc, eq, exists, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminMcpServer, AdminMcpTool, mcpServerBodySchema, updateMcpToolBodySchema } from '../../../shared/api/admin/mcpServers';
import { diffFields } from '../../../shared/domain/audit';
import type { Database, Queryable } from '../../db/client';
import { isUniqueViolation } from '../../db/databaseErrors';
import type { MemberRow } from '../../db/rows';
import { chatbotTools, chatbots, mcpServers, mcpToolGroupPermissions, mcpTools, memberGroupLinks, memberGroups, tenants } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { AppError, notFound } from '../../errors';
import { type ListedTool, McpConnectionFailure, type McpTarget } from '../../mcp/connector';
import { DEMO_MCP_DESCRIPTION, DEMO_MCP_NAME, DEMO_MCP_PATH } from '../../mcp/demoServer';
import { type PageRequest, paginate } from '../../shared/pagination';
import { type AuditActor, recordAudit } from '../auditLog/service';

/**
 * The tenant's MCP servers (issue 24; docs/decisions "MCP servers"): registered by admins, their
 * tools listed on every save and refresh, each tool switched on for chosen member groups. Every
 * connection goes through `deps.mcp` (the outbound guard); a failed one is kept on the row and
 * answered as a 4xx.
 */

type ServerRow = typeof mcpServers.$inferSelect;
type ToolRow = typeof mcpTools.$inferSelect;
type ServerBody = z.output<typeof mcpServerBodySchema>;
type ToolBody = z.output<typeof updateMcpToolBodySchema>;
export type McpDeps = Pick<AppDeps, 'db' | 'mcp' | 'outbound' | 'clock'>;

const nameTaken = () => new AppError(409, 'mcp_server_name_taken', 'Another MCP server has this name.');

async function serverOf(q: Queryable, tenantId: number, id: number): Promise<ServerRow> {
  const [row] = await q
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.tenantId, tenantId), eq(mcpServers.id, id)));
  if (!row) throw notFound();
  return row;
}

async function toServerDtos(q: Queryable, rows: ServerRow[]): Promise<AdminMcpServer[]> {
  const ids = rows.map((row) => row.id);
  const counts =
    ids.length === 0
      ? []
      : await q
          .select({ serverId: mcpTools.mcpServerId, tools: count(), enabled: sql<number>`count(*) filter (where ${mcpTools.isEnabled})`.mapWith(Number) })
          .from(mcpTools)
          .where(and(inArray(mcpTools.mcpServerId, ids), eq(mcpTools.isGone, false)))
          .groupBy(mcpTools.mcpServerId);
  return rows.map((row) => {
    const counted = counts.find((c) => c.serverId === row.id);
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      description: row.description,
      secret_kind: row.secretKind,
      secret_header_name: row.secretHeaderName,
      has_secret: row.secret !== '',
      tool_count: counted?.tools ?? 0,
      enabled_tool_count: counted?.enabled ?? 0,
      last_connected_at: row.lastConnectedAt?.toISOString() ?? null,
      last_error:
        row.lastErrorCode && row.lastErrorAt ? { code: row.lastErrorCode, message: row.lastErrorMessage ?? '', at: row.lastErrorAt.toISOString() } : null,
    };
  });
}

async function toServerDto(q: Queryable, row: ServerRow): Promise<AdminMcpServer> {
  const [dto] = await toServerDtos(q, [row]);
  return dto!;
}

/** A server as its audit row keeps it: never the secret, only whether there is one. */
function audited(row: Pick<ServerRow, 'name' | 'url' | 'description' | 'secretKind' | 'secretHeaderName' | 'secret'>) {
  return {
    name: row.name,
    url: row.url,
    description: row.description,
    secret_kind: row.secretKind,
    secret_header_name: row.secretHeaderName,
    secret_set: row.secret !== '',
  };
}

export async function listServers(db: Database, tenantId: number, page: PageRequest) {
  const scope = eq(mcpServers.tenantId, tenantId);
  return paginate(page, {
    count: async () => (await db.select({ n: count() }).from(mcpServers).where(scope))[0]?.n ?? 0,
    rows: ({ limit, offset }) => db.select().from(mcpServers).where(scope).orderBy(asc(mcpServers.name), asc(mcpServers.id)).limit(limit).offset(offset),
    toItems: (rows) => toServerDtos(db, rows),
  });
}

/** The settings to store; an empty secret keeps the stored one (answers never carry it), and no secret is kept without a way to send it. */
async function settingsToStore(deps: Pick<McpDeps, 'outbound'>, body: ServerBody, previous?: ServerRow) {
  const refused = await deps.outbound.destinationProblem(body.url);
  if (refused) throw new AppError(422, 'destination_refused', refused);
  const secret = body.secret_kind === 'none' ? '' : body.secret || (previous?.secret ?? '');
  return {
    name: body.name,
    url: body.url,
    description: body.description,
    secretKind: body.secret_kind,
    secretHeaderName: body.secret_kind === 'header' ? body.secret_header_name : '',
    secret,
  };
}

/**
 * Lists the server's tools and stores them: new ones switched off, changed descriptions and schemas
 * taken, ones no longer listed marked gone (their switches and groups kept for when they return).
 * A failure is stored on the row and thrown as a 4xx (`destination_refused` 422, the others 424).
 * `actor` null: the server itself at start (the demo), which records no audit row.
 */
async function connectAndStore(deps: McpDeps, row: ServerRow, actor: AuditActor | null): Promise<ServerRow> {
  let listed: ListedTool[];
  try {
    listed = await deps.mcp.listTools(row);
  } catch (error) {
    if (!(error instanceof McpConnectionFailure)) throw error;
    await deps.db
      .update(mcpServers)
      .set({ lastErrorCode: error.code, lastErrorMessage: error.message, lastErrorAt: deps.clock() })
      .where(and(eq(mcpServers.tenantId, row.tenantId), eq(mcpServers.id, row.id)));
    throw new AppError(error.code === 'destination_refused' ? 422 : 424, error.code, error.message, { mcp_server_id: row.id });
  }
  return deps.db.transaction(async (tx) => {
    // One listing at a time per server, and none for a server deleted meanwhile (404, not a foreign-key failure).
    const [locked] = await tx
      .select({ id: mcpServers.id })
      .from(mcpServers)
      .where(and(eq(mcpServers.tenantId, row.tenantId), eq(mcpServers.id, row.id)))
      .for('update');
    if (!locked) throw notFound();
    const existing = await tx
      .select()
      .from(mcpTools)
      .where(and(eq(mcpTools.tenantId, row.tenantId), eq(mcpTools.mcpServerId, row.id)));
    const byName = new Map(existing.map((tool) => [tool.name, tool]));
    const listedNames = new Set(listed.map((tool) => tool.name));
    const added = listed.filter((tool) => !byName.has(tool.name));
    const returned = existing.filter((tool) => tool.isGone && listedNames.has(tool.name));
    const gone = existing.filter((tool) => !tool.isGone && !listedNames.has(tool.name));
    const now = deps.clock();
    if (added.length > 0) {
      await tx
        .insert(mcpTools)
        .values(
          added.map((tool) => ({ tenantId: row.tenantId, mcpServerId: row.id, name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
        );
    }
    for (const tool of listed) {
      const stored = byName.get(tool.name);
      if (!stored) continue;
      const changed = stored.isGone || stored.description !== tool.description || JSON.stringify(stored.inputSchema) !== JSON.stringify(tool.inputSchema);
      if (changed) {
        await tx
          .update(mcpTools)
          .set({ description: tool.description, inputSchema: tool.inputSchema, isGone: false, updatedAt: now })
          .where(eq(mcpTools.id, stored.id));
      }
    }
    if (gone.length > 0) {
      await tx
        .update(mcpTools)
        .set({ isGone: true, updatedAt: now })
        .where(
          inArray(
            mcpTools.id,
            gone.map((tool) => tool.id),
          ),
        );
    }
    const [updated] = await tx
      .update(mcpServers)
      .set({ lastConnectedAt: now, lastErrorCode: null, lastErrorMessage: null, lastErrorAt: null })
      .where(and(eq(mcpServers.tenantId, row.tenantId), eq(mcpServers.id, row.id)))
      .returning();
    if (!updated) throw notFound();
    const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);
    if (actor && added.length + gone.length + returned.length > 0) {
      await recordAudit(tx, {
        tenantId: row.tenantId,
        actor,
        action: 'mcp_server.refresh',
        targetType: 'mcp_server',
        targetId: row.id,
        changes: { name: row.name, added: names(added), gone: names(gone), returned: names(returned) },
      });
    }
    return updated;
  });
}

export async function createServer(deps: McpDeps, tenantId: number, actor: AuditActor, body: ServerBody): Promise<AdminMcpServer> {
  const settings = await settingsToStore(deps, body);
  const row = await deps.db
    .transaction(async (tx) => {
      const [inserted] = await tx
        .insert(mcpServers)
        .values({ tenantId, ...settings })
        .returning();
      if (!inserted) throw new Error('MCP server insert returned no row');
      await recordAudit(tx, { tenantId, actor, action: 'mcp_server.create', targetType: 'mcp_server', targetId: inserted.id, changes: audited(inserted) });
      return inserted;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? nameTaken() : error;
    });
  return toServerDto(deps.db, await connectAndStore(deps, row, actor));
}

export async function updateServer(deps: McpDeps, tenantId: number, actor: AuditActor, id: number, body: ServerBody): Promise<AdminMcpServer> {
  const previous = await serverOf(deps.db, tenantId, id);
  const settings = await settingsToStore(deps, body, previous);
  const row = await deps.db
    .transaction(async (tx) => {
      const [updated] = await tx
        .update(mcpServers)
        .set({ ...settings, updatedAt: deps.clock() })
        .where(and(eq(mcpServers.tenantId, tenantId), eq(mcpServers.id, id)))
        .returning();
      if (!updated) throw notFound();
      // A replaced secret is said to have changed, never shown.
      const secretReplaced = updated.secret !== '' && previous.secret !== '' && updated.secret !== previous.secret;
      const changes = { name: updated.name, ...diffFields(audited(previous), audited(updated)), ...(secretReplaced ? { secret_replaced: true } : {}) };
      await recordAudit(tx, { tenantId, actor, action: 'mcp_server.update', targetType: 'mcp_server', targetId: id, changes });
      return updated;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? nameTaken() : error;
    });
  return toServerDto(deps.db, await connectAndStore(deps, row, actor));
}

export async function refreshServer(deps: McpDeps, tenantId: number, actor: AuditActor, id: number): Promise<AdminMcpServer> {
  return toServerDto(deps.db, await connectAndStore(deps, await serverOf(deps.db, tenantId, id), actor));
}

export async function deleteServer(db: Database, tenantId: number, actor: AuditActor, id: number) {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(mcpServers)
      .where(and(eq(mcpServers.tenantId, tenantId), eq(mcpServers.id, id)))
      .returning();
    if (!removed) throw notFound();
    await recordAudit(tx, { tenantId, actor, action: 'mcp_server.delete', targetType: 'mcp_server', targetId: id, changes: audited(removed) });
    return { ok: true as const };
  });
}

async function groupIdsByTool(q: Queryable, tenantId: number, toolIds: number[]): Promise<Map<number, number[]>> {
  const rows =
    toolIds.length === 0
      ? []
      : await q
          .select({ toolId: mcpToolGroupPermissions.mcpToolId, groupId: mcpToolGroupPermissions.memberGroupId })
          .from(mcpToolGroupPermissions)
          .where(and(eq(mcpToolGroupPermissions.tenantId, tenantId), inArray(mcpToolGroupPermissions.mcpToolId, toolIds)))
          .orderBy(asc(mcpToolGroupPermissions.memberGroupId));
  const byTool = new Map<number, number[]>();
  for (const row of rows) byTool.set(row.toolId, [...(byTool.get(row.toolId) ?? []), row.groupId]);
  return byTool;
}

function toToolDto(row: ToolRow, groupIds: number[]): AdminMcpTool {
  return {
    id: row.id,
    mcp_server_id: row.mcpServerId,
    name: row.name,
    description: row.description,
    input_schema: row.inputSchema,
    is_enabled: row.isEnabled,
    is_sensitive: row.isSensitive,
    is_gone: row.isGone,
    member_group_ids: groupIds,
  };
}

/** A server's tools (listed ones first, then gone ones) and the tenant's groups, for the console. */
export async function listTools(db: Database, tenantId: number, serverId: number) {
  await serverOf(db, tenantId, serverId);
  const rows = await db
    .select()
    .from(mcpTools)
    .where(and(eq(mcpTools.tenantId, tenantId), eq(mcpTools.mcpServerId, serverId)))
    .orderBy(asc(mcpTools.isGone), asc(mcpTools.name));
  const groups = await db
    .select({ id: memberGroups.id, ko_name: memberGroups.koName, en_name: memberGroups.enName, is_default: memberGroups.isDefault })
    .from(memberGroups)
    .where(eq(memberGroups.tenantId, tenantId))
    .orderBy(desc(memberGroups.isDefault), asc(memberGroups.id));
  const byTool = await groupIdsByTool(
    db,
    tenantId,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toToolDto(row, byTool.get(row.id) ?? [])), groups };
}

/** Switches, sensitivity and groups of one tool; 404 for another tenant's tool or group. */
export async function updateTool(db: Database, tenantId: number, actor: AuditActor, serverId: number, toolId: number, body: ToolBody): Promise<AdminMcpTool> {
  return db.transaction(async (tx) => {
    const [tool] = await tx
      .select()
      .from(mcpTools)
      .where(and(eq(mcpTools.tenantId, tenantId), eq(mcpTools.mcpServerId, serverId), eq(mcpTools.id, toolId)));
    if (!tool) throw notFound();
    const previousGroups = (await groupIdsByTool(tx, tenantId, [tool.id])).get(tool.id) ?? [];
    let groups = previousGroups;
    if (body.member_group_ids) {
      groups = [...new Set(body.member_group_ids)].sort((a, b) => a - b);
      const found =
        groups.length === 0
          ? []
          : await tx
              .select({ id: memberGroups.id })
              .from(memberGroups)
              .where(and(eq(memberGroups.tenantId, tenantId), inArray(memberGroups.id, groups)));
      if (found.length !== groups.length) throw notFound('A member group does not exist.');
      await tx.delete(mcpToolGroupPermissions).where(and(eq(mcpToolGroupPermissions.tenantId, tenantId), eq(mcpToolGroupPermissions.mcpToolId, tool.id)));
      if (groups.length > 0) {
        await tx.insert(mcpToolGroupPermissions).values(groups.map((memberGroupId) => ({ tenantId, mcpToolId: tool.id, memberGroupId })));
      }
    }
    const [updated] = await tx
      .update(mcpTools)
      .set({ isEnabled: body.is_enabled ?? tool.isEnabled, isSensitive: body.is_sensitive ?? tool.isSensitive, updatedAt: new Date() })
      .where(eq(mcpTools.id, tool.id))
      .returning();
    if (!updated) throw notFound();
    const changes = {
      name: tool.name,
      ...diffFields(
        { is_enabled: tool.isEnabled, is_sensitive: tool.isSensitive, member_groups: previousGroups },
        {
          is_enabled: updated.isEnabled,
          is_sensitive: updated.isSensitive,
          member_groups: groups,
        },
      ),
    };
    // A request that changed nothing leaves no row.
    if (Object.keys(changes).length > 1) {
      await recordAudit(tx, { tenantId, actor, action: 'mcp_tool.update', targetType: 'mcp_tool', targetId: tool.id, changes });
    }
    return toToolDto(updated, groups);
  });
}

/** A tool a member may call, with what the chat needs to call it. */
export interface UsableMcpTool {
  id: number;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  isSensitive: boolean;
  server: { id: number; name: string; url: string };
}

/**
 * The rows of the tenant's tools that are switched on and still listed, narrowed by `where`: one
 * statement (the chat runs it at every send and every call).
 */
async function enabledToolRows(q: Queryable, tenantId: number, where?: SQL) {
  return q
    .select({ tool: mcpTools, server: mcpServers })
    .from(mcpTools)
    .innerJoin(mcpServers, and(eq(mcpServers.id, mcpTools.mcpServerId), eq(mcpServers.tenantId, tenantId)))
    .where(and(eq(mcpTools.tenantId, tenantId), eq(mcpTools.isEnabled, true), eq(mcpTools.isGone, false), where))
    .orderBy(asc(mcpServers.name), asc(mcpTools.name));
}

/** Allowed to one of the member's groups (a subquery: no round trip for the group ids). */
function allowedToMember(q: Queryable, member: MemberRow): SQL {
  const groupIds = q
    .select({ id: memberGroupLinks.memberGroupId })
    .from(memberGroupLinks)
    .where(and(eq(memberGroupLinks.tenantId, member.tenantId), eq(memberGroupLinks.memberId, member.id)));
  return exists(
    q
      .select({ one: sql`1` })
      .from(mcpToolGroupPermissions)
      .where(
        and(
          eq(mcpToolGroupPermissions.mcpToolId, mcpTools.id),
          eq(mcpToolGroupPermissions.tenantId, member.tenantId),
          inArray(mcpToolGroupPermissions.memberGroupId, groupIds),
        ),
      ),
  );
}

const toUsable = ({ tool, server }: { tool: ToolRow; server: ServerRow }): UsableMcpTool => ({
  id: tool.id,
  name: tool.name,
  description: tool.description,
  inputSchema: tool.inputSchema,
  isSensitive: tool.isSensitive,
  server: { id: server.id, name: server.name, url: server.url },
});

/**
 * The tools this member may use (issue 24): switched on, still listed by their server, and allowed
 * to one of the member's groups. The chat intersects it with the chatbot's own choice of tools
 * (chatbotMcpTools) at every call, so a tool switched off or taken from a group stops at once.
 */
export async function memberMcpTools(q: Queryable, member: MemberRow): Promise<UsableMcpTool[]> {
  return (await enabledToolRows(q, member.tenantId, allowedToMember(q, member))).map(toUsable);
}

/** A tool a chat may call: with where its server is and how its secret goes (never shown to anyone). */
export interface CallableMcpTool extends UsableMcpTool {
  target: McpTarget;
}

/**
 * The chatbot's tools this member may use now (chatbot_tools ∩ memberMcpTools); with `toolId`,
 * that one tool or nothing: the check the chat makes again at every call.
 */
export async function chatbotMcpTools(q: Queryable, member: MemberRow, chatbotId: number, toolId?: number): Promise<CallableMcpTool[]> {
  const chosen = q
    .select({ id: chatbotTools.mcpToolId })
    .from(chatbotTools)
    .where(and(eq(chatbotTools.tenantId, member.tenantId), eq(chatbotTools.chatbotId, chatbotId)));
  const rows = await enabledToolRows(
    q,
    member.tenantId,
    and(allowedToMember(q, member), inArray(mcpTools.id, chosen), toolId === undefined ? undefined : eq(mcpTools.id, toolId)),
  );
  return rows.map((row) => ({
    ...toUsable(row),
    target: { url: row.server.url, secretKind: row.server.secretKind, secretHeaderName: row.server.secretHeaderName, secret: row.server.secret },
  }));
}

/**
 * The tools this member may give a chatbot in the Studio (docs/decisions/0084-chatbot-tools.md):
 * those they may use themselves; an admin, who also edits the default chatbots, every enabled tool.
 */
export function pickableMcpTools(q: Queryable, member: MemberRow): Promise<UsableMcpTool[]> {
  return member.isAdmin ? enabledToolRows(q, member.tenantId).then((rows) => rows.map(toUsable)) : memberMcpTools(q, member);
}

/**
 * At start, with the demo MCP server this process started (src/server/index.ts): the demo tenant's
 * row for it (found by its path on 127.0.0.1, since the port is new every start) gets the new
 * address and its tools listed again. When the demo tenant has no MCP server at all (new, or an
 * admin deleted the only one) it is registered, its tools switched on for the default group and
 * given to the General Assistant.
 */
export async function syncDemoMcpServer(deps: McpDeps, demo: { url: string; tenant: string }): Promise<void> {
  const [tenant] = await deps.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.subdomain, demo.tenant));
  if (!tenant) return;
  const servers = await deps.db.select().from(mcpServers).where(eq(mcpServers.tenantId, tenant.id));
  const existing = servers.find((row) => row.url.startsWith('http://127.0.0.1:') && row.url.endsWith(DEMO_MCP_PATH));
  if (existing) {
    const [moved] = await deps.db.update(mcpServers).set({ url: demo.url }).where(eq(mcpServers.id, existing.id)).returning();
    await connectAndStore(deps, moved ?? existing, null);
    return;
  }
  if (servers.length > 0) return;
  const [registered] = await deps.db
    .insert(mcpServers)
    .values({ tenantId: tenant.id, name: DEMO_MCP_NAME, url: demo.url, description: DEMO_MCP_DESCRIPTION })
    .onConflictDoNothing()
    .returning();
  if (!registered) return;
  await connectAndStore(deps, registered, null);
  const [group] = await deps.db
    .select({ id: memberGroups.id })
    .from(memberGroups)
    .where(and(eq(memberGroups.tenantId, tenant.id), eq(memberGroups.isDefault, true)));
  const tools = await deps.db.update(mcpTools).set({ isEnabled: true }).where(eq(mcpTools.mcpServerId, registered.id)).returning({ id: mcpTools.id });
  if (group && tools.length > 0) {
    await deps.db.insert(mcpToolGroupPermissions).values(tools.map((tool) => ({ tenantId: tenant.id, mcpToolId: tool.id, memberGroupId: group.id })));
  }
  // The seed's first default chatbot (General Assistant) carries them, so a newcomer's "what time is it?" shows a tool step.
  const [assistant] = await deps.db
    .select({ id: chatbots.id })
    .from(chatbots)
    .where(and(eq(chatbots.tenantId, tenant.id), eq(chatbots.hashId, `${demo.tenant}-default-1`)));
  if (assistant && tools.length > 0) {
    await deps.db
      .insert(chatbotTools)
      .values(tools.map((tool) => ({ tenantId: tenant.id, chatbotId: assistant.id, mcpToolId: tool.id })))
      .onConflictDoNothing();
  }
}
