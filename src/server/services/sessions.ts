import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Paginated } from '../../shared/api/common';
import { paginate } from './pagination';
import type { Session, SessionMessage, historyResponseSchema } from '../../shared/api/sessions';
import type { z } from 'zod';
import type { Queryable } from '../db/client';
import { files, sessionMessageFiles, sessionMessages, sessions } from '../db/schema';
import { AppError, notFound } from '../errors';
import type { MemberRow, SessionMessageRow, SessionRow } from '../db/rows';
import { findVisibleChatbot } from './chatbots';

/** Public, unguessable id of a session (it appears in URLs). */
export const newHashId = () => randomBytes(12).toString('base64url');

const TITLE_MAX = 60;

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

/** The member's own session by hash id; 404 for anyone else's (other tenants included). */
export async function findOwnSession(q: Queryable, member: MemberRow, hash: string): Promise<SessionRow> {
  const [session] = await q
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, member.tenantId), eq(sessions.memberId, member.id), eq(sessions.hashId, hash)));
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

async function toMessageDtos(q: Queryable, tenantId: number, rows: SessionMessageRow[]): Promise<SessionMessage[]> {
  const attached = rows.length
    ? await q
        .select({ messageId: sessionMessageFiles.messageId, id: files.id, type: files.mimeType, name: files.name })
        .from(sessionMessageFiles)
        .innerJoin(files, eq(files.id, sessionMessageFiles.fileId))
        .where(and(eq(sessionMessageFiles.tenantId, tenantId), inArray(sessionMessageFiles.messageId, rows.map((r) => r.id))))
    : [];
  return rows.map((row) => ({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    text: row.text,
    speaker_type: row.speakerType,
    files: attached
      .filter((file) => file.messageId === row.id)
      .map((file) => ({ id: file.id, type: file.type, name: file.name, url: `/api/v1/files/${file.id}/` })),
    interrupted: row.interrupted,
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

/** One page of messages, oldest first; `first_id` pages backwards from the oldest message the client has. */
export async function getHistory(
  q: Queryable,
  member: MemberRow,
  hash: string,
  query: { size: number; first_id?: number },
): Promise<z.output<typeof historyResponseSchema>> {
  const session = await findOwnSession(q, member, hash);
  const rows = await q
    .select()
    .from(sessionMessages)
    .where(
      and(
        eq(sessionMessages.tenantId, member.tenantId),
        eq(sessionMessages.sessionId, session.id),
        query.first_id === undefined ? undefined : lt(sessionMessages.id, query.first_id),
      ),
    )
    .orderBy(desc(sessionMessages.id))
    .limit(query.size + 1);
  const hasMore = rows.length > query.size;
  const page = rows.slice(0, query.size).reverse();
  return {
    items: await toMessageDtos(q, member.tenantId, page),
    has_more: hasMore,
    context_tokens: await sessionContextTokens(q, session.id),
  };
}

export async function updateSession(
  q: Queryable,
  member: MemberRow,
  hash: string,
  patch: { title?: string; chatbot_id?: number },
): Promise<Session> {
  const session = await findOwnSession(q, member, hash);
  if (patch.title === undefined && patch.chatbot_id === undefined) return toSessionDto(session, member.name);
  if (patch.chatbot_id !== undefined) await findVisibleChatbot(q, member, patch.chatbot_id);
  const [updated] = await q
    .update(sessions)
    .set({
      ...(patch.title !== undefined ? { title: patch.title } : {}),
      ...(patch.chatbot_id !== undefined ? { chatbotId: patch.chatbot_id } : {}),
    })
    .where(eq(sessions.id, session.id))
    .returning();
  return toSessionDto(updated ?? session, member.name);
}

/** A title from the first thing the member said: whitespace collapsed, cut at TITLE_MAX characters. */
export function titleFromMessage(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > TITLE_MAX ? `${chars.slice(0, TITLE_MAX - 1).join('').trimEnd()}…` : flat;
}

export async function generateTitle(q: Queryable, member: MemberRow, hash: string): Promise<Session> {
  const session = await findOwnSession(q, member, hash);
  const [first] = await q
    .select({ text: sessionMessages.text })
    .from(sessionMessages)
    .where(
      and(
        eq(sessionMessages.sessionId, session.id),
        eq(sessionMessages.speakerType, 'member'),
        sql`btrim(${sessionMessages.text}) <> ''`,
      ),
    )
    .orderBy(sessionMessages.id)
    .limit(1);
  if (!first) throw new AppError(403, 'no_history', 'There is no history in this session.');
  const [updated] = await q.update(sessions).set({ title: titleFromMessage(first.text) }).where(eq(sessions.id, session.id)).returning();
  return toSessionDto(updated ?? session, member.name);
}

export async function deleteSession(q: Queryable, member: MemberRow, hash: string): Promise<void> {
  const session = await findOwnSession(q, member, hash);
  await q.delete(sessions).where(eq(sessions.id, session.id));
}
