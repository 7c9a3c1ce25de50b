import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Paginated } from '../../../shared/api/common';
import { paginate } from '../../shared/pagination';
import type { Session, SessionMessage, historyResponseSchema } from '../../../shared/api/sessions';
import type { z } from 'zod';
import type { Queryable } from '../../db/client';
import { files, sessionMessageFiles, sessionMessages, sessions } from '../../db/schema';
import { notFound } from '../../errors';
import type { MemberRow, SessionMessageRow, SessionRow } from '../../db/rows';
import { findVisibleChatbot } from '../chatbots/service';
import { fileUrl, publicAccessLevel, sharedSessionFileUrl } from '../files/service';
import { type TitleDeps, titleSession } from './titles';

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
    .where(and(eq(sessions.tenantId, member.tenantId), eq(sessions.memberId, member.id), eq(sessions.isVisitor, false), eq(sessions.isApi, false), eq(sessions.hashId, hash)));
  if (!session) throw notFound('The session does not exist.');
  return session;
}

export async function listSessions(
  q: Queryable,
  member: MemberRow,
  query: { page: number; size: number; chatbot_id?: number },
): Promise<Paginated<Session>> {
  const where = and(
    eq(sessions.tenantId, member.tenantId),
    eq(sessions.memberId, member.id),
    eq(sessions.isVisitor, false),
    // Studio test chats stay in the Studio's test panel.
    eq(sessions.isTest, false),
    // API calls are recorded as sessions of their own, for their usage, not as chats (docs/decisions/0058-api-keys-and-openai-api.md).
    eq(sessions.isApi, false),
    query.chatbot_id === undefined ? undefined : eq(sessions.chatbotId, query.chatbot_id),
  );
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

async function toMessageDtos(q: Queryable, tenantId: number, rows: SessionMessageRow[], reader: HistoryReader): Promise<SessionMessage[]> {
  const attached = rows.length
    ? await q
        .select({ messageId: sessionMessageFiles.messageId, id: files.id, type: files.mimeType, name: files.name })
        .from(sessionMessageFiles)
        .innerJoin(files, eq(files.id, sessionMessageFiles.fileId))
        .where(
          and(
            eq(sessionMessageFiles.tenantId, tenantId),
            inArray(sessionMessageFiles.messageId, rows.map((r) => r.id)),
            reader.kind === 'visitor' ? publicAccessLevel : undefined,
          ),
        )
    : [];
  const urlOf = (id: number) => (reader.kind === 'visitor' ? sharedSessionFileUrl(reader.sessionHash, id) : fileUrl(id));
  return rows.map((row) => ({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    text: row.text,
    speaker_type: row.speakerType,
    files: attached
      .filter((file) => file.messageId === row.id)
      .map((file) => ({ id: file.id, type: file.type, name: file.name, url: urlOf(file.id) })),
    interrupted: row.interrupted,
    streaming: row.streaming,
    reasoning: row.reasoning,
    reasoning_ms: row.reasoningMs,
    citations: row.citations,
  }));
}

/** Estimated tokens of everything said in the session (what the next call sends as history), by the shared estimateTokens rule. */
export async function sessionContextTokens(q: Queryable, sessionId: number): Promise<number> {
  const [row] = await q
    .select({ bytes: sql<string>`coalesce(sum(octet_length(${sessionMessages.text})), 0)`.mapWith(Number) })
    .from(sessionMessages)
    .where(eq(sessionMessages.sessionId, sessionId));
  return Math.ceil((row?.bytes ?? 0) / 4);
}

/** One page of a session's messages, oldest first; `first_id` pages backwards from the oldest message the client has. */
export async function historyPage(
  q: Queryable,
  session: SessionRow,
  query: { size: number; first_id?: number },
  reader: HistoryReader,
): Promise<z.output<typeof historyResponseSchema>> {
  const rows = await q
    .select()
    .from(sessionMessages)
    .where(
      and(
        eq(sessionMessages.tenantId, session.tenantId),
        eq(sessionMessages.sessionId, session.id),
        query.first_id === undefined ? undefined : lt(sessionMessages.id, query.first_id),
      ),
    )
    .orderBy(desc(sessionMessages.id))
    .limit(query.size + 1);
  const hasMore = rows.length > query.size;
  const page = rows.slice(0, query.size).reverse();
  return {
    items: await toMessageDtos(q, session.tenantId, page, reader),
    has_more: hasMore,
    context_tokens: await sessionContextTokens(q, session.id),
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
