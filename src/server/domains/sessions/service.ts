import { randomBytes } from 'node:crypto';
import { type SQL, and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../shared/domain/pagination';
import { type BranchStart, branchPage, chooseBranch, messagesWithSiblings, showBranchThrough } from './branches';
import type { Paginated } from '../../../shared/api/common';
import { paginate } from '../../shared/pagination';
import type { Session, SessionMessage, historyResponseSchema } from '../../../shared/api/sessions';
import type { z } from 'zod';
import type { Queryable } from '../../db/client';
import { files, mcpTools, sessionMessageFiles, sessions } from '../../db/schema';
import { notFound } from '../../errors';
import type { MemberRow, SessionMessageRow, SessionRow } from '../../db/rows';
import { findVisibleChatbot } from '../chatbots/service';
import { fileUrl, publicAccessLevel, sharedSessionFileUrl } from '../files/service';
import { type TitleDeps, titleSession } from './titles';
import { feedbackOfMessages } from '../feedback/answerFeedback';

/** Public, unguessable id of a session (it appears in URLs). */
export const newHashId = () => randomBytes(12).toString('base64url');

export function toSessionDto(session: SessionRow, creatorName: string): Session {
  return {
    id: session.id,
    hash_id: session.hashId,
    chatbot_id: session.chatbotId,
    chatbot: { id: session.chatbotId },
    title: session.title,
    is_public: session.isPublic,
    creator_name: creatorName,
    last_chat_at: session.lastChatAt?.toISOString() ?? null,
    created_at: session.createdAt.toISOString(),
  };
}

/**
 * The member's own session by hash id; 404 for anyone else's (other tenants included) and for the
 * visitor sessions their public chatbots hold.
 */
export async function findOwnSession(q: Queryable, member: MemberRow, hash: string): Promise<SessionRow> {
  const [session] = await q
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.tenantId, member.tenantId),
        eq(sessions.memberId, member.id),
        eq(sessions.isVisitor, false),
        eq(sessions.isApi, false),
        eq(sessions.hashId, hash),
      ),
    );
  if (!session) throw notFound('The session does not exist.');
  return session;
}

/** The member's chats as My chats lists them (optionally of one chatbot). */
export function ownChats(member: MemberRow, chatbotId: number | undefined): SQL {
  return and(
    eq(sessions.tenantId, member.tenantId),
    eq(sessions.memberId, member.id),
    eq(sessions.isVisitor, false),
    // Studio test chats stay in the Studio's test panel.
    eq(sessions.isTest, false),
    // API calls are recorded as sessions of their own, for their usage, not as chats (docs/decisions/0058-api-keys-and-openai-api.md).
    eq(sessions.isApi, false),
    chatbotId === undefined ? undefined : eq(sessions.chatbotId, chatbotId),
  )!;
}

export async function listSessions(q: Queryable, member: MemberRow, query: { page: number; size: number; chatbot_id?: number }): Promise<Paginated<Session>> {
  const where = ownChats(member, query.chatbot_id);
  return paginate(query, {
    count: async () => (await q.select({ value: count() }).from(sessions).where(where))[0]?.value ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select()
        .from(sessions)
        .where(where)
        .orderBy(sql`coalesce(${sessions.lastChatAt}, ${sessions.createdAt}) desc`, desc(sessions.id))
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows.map((row) => toSessionDto(row, member.name)),
  });
}

export async function getSession(q: Queryable, member: MemberRow, hash: string): Promise<Session> {
  return toSessionDto(await findOwnSession(q, member, hash), member.name);
}

/**
 * Who reads the history: its member (files at their authenticated path) or anyone with the link of
 * a shared session (files at the session's public path; private files left out, since that path
 * would refuse them and their names are the member's own).
 */
export type HistoryReader = { kind: 'member' } | { kind: 'visitor'; sessionHash: string };

type BranchMessageRow = SessionMessageRow & { siblingCount: number; siblingPosition: number };

/**
 * A shared session's tool calls as its signed-out readers see them: a sensitive tool's arguments and
 * result are withheld, as the audit log withholds its arguments (they may hold what the member
 * would not publish); the call itself, and the answer the member chose to share, still show.
 */
async function toolCallsForVisitors(q: Queryable, tenantId: number, rows: BranchMessageRow[]) {
  const toolIds = [...new Set(rows.flatMap((row) => row.toolCalls.flatMap((call) => (call.tool_id === null ? [] : [call.tool_id]))))];
  const sensitive = new Set(
    toolIds.length
      ? (
          await q
            .select({ id: mcpTools.id })
            .from(mcpTools)
            .where(and(eq(mcpTools.tenantId, tenantId), inArray(mcpTools.id, toolIds), eq(mcpTools.isSensitive, true)))
        ).map((tool) => tool.id)
      : [],
  );
  return (row: BranchMessageRow) =>
    row.toolCalls.map((call) => (call.tool_id !== null && sensitive.has(call.tool_id) ? { ...call, arguments: {}, result: '', withheld: true } : call));
}

async function toMessageDtos(q: Queryable, tenantId: number, rows: BranchMessageRow[], reader: HistoryReader): Promise<SessionMessage[]> {
  const attached = rows.length
    ? await q
        .select({ messageId: sessionMessageFiles.messageId, id: files.id, type: files.mimeType, name: files.name })
        .from(sessionMessageFiles)
        .innerJoin(files, eq(files.id, sessionMessageFiles.fileId))
        .where(
          and(
            eq(sessionMessageFiles.tenantId, tenantId),
            inArray(
              sessionMessageFiles.messageId,
              rows.map((r) => r.id),
            ),
            reader.kind === 'visitor' ? publicAccessLevel : undefined,
          ),
        )
    : [];
  // A shared session's readers never see how its member rated it.
  const feedback =
    reader.kind === 'member'
      ? await feedbackOfMessages(
          q,
          tenantId,
          rows.map((row) => row.id),
        )
      : new Map<number, never>();
  const urlOf = (id: number) => (reader.kind === 'visitor' ? sharedSessionFileUrl(reader.sessionHash, id) : fileUrl(id));
  const shownCalls = reader.kind === 'visitor' ? await toolCallsForVisitors(q, tenantId, rows) : (row: BranchMessageRow) => row.toolCalls;
  return rows.map((row) => ({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    text: row.text,
    speaker_type: row.speakerType,
    files: attached.filter((file) => file.messageId === row.id).map((file) => ({ id: file.id, type: file.type, name: file.name, url: urlOf(file.id) })),
    interrupted: row.interrupted,
    streaming: row.streaming,
    reasoning: row.reasoning,
    reasoning_ms: row.reasoningMs,
    citations: row.citations,
    tool_calls: shownCalls(row),
    feedback: feedback.get(row.id) ?? null,
    imported: row.imported,
    parent_id: row.parentId,
    sibling_count: row.siblingCount,
    sibling_position: row.siblingPosition,
  }));
}

/**
 * One page of the session's active branch, oldest first; `first_id` pages backwards along the branch
 * from the oldest message the client has (a message of another session gives an empty page).
 */
export async function historyPage(
  q: Queryable,
  session: SessionRow,
  query: { size: number; first_id?: number },
  reader: HistoryReader,
): Promise<z.output<typeof historyResponseSchema>> {
  const start: BranchStart = query.first_id === undefined ? { active: true } : { before: query.first_id };
  // Only the newest page counts the branch's size: the client reads it there, and an older page then costs only itself.
  const { ids, contextTokens } = await branchPage(q, session, start, query.size, query.first_id === undefined);
  const rows = await messagesWithSiblings(q, session, ids.slice(0, query.size));
  return {
    items: await toMessageDtos(q, session.tenantId, rows, reader),
    has_more: ids.length > query.size,
    context_tokens: contextTokens,
  };
}

export async function getHistory(
  q: Queryable,
  member: MemberRow,
  hash: string,
  query: { size: number; first_id?: number },
): Promise<z.output<typeof historyResponseSchema>> {
  return historyPage(q, await findOwnSession(q, member, hash), query, { kind: 'member' });
}

/**
 * Shows another version of a message of the member's session (`position`), or the branch through a
 * message (none: a search result's); answers the first page of the branch then active.
 */
export async function switchBranch(
  q: Queryable,
  member: MemberRow,
  hash: string,
  body: { message_id: number; position?: number },
): Promise<z.output<typeof historyResponseSchema>> {
  const own = await findOwnSession(q, member, hash);
  const session = body.position === undefined ? await showBranchThrough(q, own, body.message_id) : await chooseBranch(q, own, body.message_id, body.position);
  return historyPage(q, session, { size: SESSION_HISTORY_PAGE_SIZE }, { kind: 'member' });
}

export async function updateSession(
  q: Queryable,
  member: MemberRow,
  hash: string,
  patch: { title?: string; chatbot_id?: number; is_public?: boolean },
): Promise<Session> {
  const session = await findOwnSession(q, member, hash);
  if (patch.title === undefined && patch.chatbot_id === undefined && patch.is_public === undefined) return toSessionDto(session, member.name);
  if (patch.chatbot_id !== undefined) await findVisibleChatbot(q, member, patch.chatbot_id);
  const [updated] = await q
    .update(sessions)
    .set({
      ...(patch.title !== undefined ? { title: patch.title } : {}),
      ...(patch.chatbot_id !== undefined ? { chatbotId: patch.chatbot_id } : {}),
      ...(patch.is_public !== undefined ? { isPublic: patch.is_public } : {}),
    })
    .where(eq(sessions.id, session.id))
    .returning();
  return toSessionDto(updated ?? session, member.name);
}

/** Titles the member's session with the chatbot's model, in the member's language. */
export async function generateTitle(deps: TitleDeps, member: MemberRow, hash: string): Promise<Session> {
  const session = await findOwnSession(deps.db, member, hash);
  return toSessionDto(await titleSession(deps, session, member.language), member.name);
}

export async function deleteSession(q: Queryable, member: MemberRow, hash: string): Promise<void> {
  const session = await findOwnSession(q, member, hash);
  await q.delete(sessions).where(eq(sessions.id, session.id));
}
