import type { AppDeps } from '../../deps';
import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PublicChatbot, PublicSession, publicChatBodySchema } from '../../../shared/api/publicSessions';
import type { historyResponseSchema } from '../../../shared/api/sessions';
import { FALLBACK_LANGUAGE, type SupportedLanguage } from '../../../shared/domain/language';
import type { Database, Queryable } from '../../db/client';
import { categories, chatbotCategories, chatbots, files, llmModels, members, sessionMessageFiles, sessionMessages, sessions } from '../../db/schema';
import type { MemberRow, SessionRow, TenantRow } from '../../db/rows';
import { AppError, notFound } from '../../errors';
import { type SendDeps, checkSend, openTurn } from '../chat/service';
import type { ChatDeps, ChatTurn, CheckedSend } from '../chat/turn';
import { type FileDownload, openStored, publicAccessLevel } from '../files/service';
import { historyPage } from '../sessions/service';
import { listTaskModes } from '../taskModes/service';
import { type TitleDeps, titleSession } from '../sessions/titles';

/** A shared session of the tenant, or undefined when it is private or does not exist. */
async function sharedSession(q: Queryable, tenant: TenantRow, hash: string): Promise<SessionRow | undefined> {
  const [session] = await q
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenant.id), eq(sessions.hashId, hash), eq(sessions.isPublic, true)));
  return session;
}

/** A public session of the tenant; 404 when it is private or does not exist (nothing tells them apart). */
async function findPublicSession(q: Queryable, tenant: TenantRow, hash: string): Promise<SessionRow> {
  const session = await sharedSession(q, tenant, hash);
  if (!session) throw notFound('The session does not exist.');
  return session;
}

async function toPublicSessionDto(q: Queryable, session: SessionRow): Promise<PublicSession> {
  const [row] = await q
    .select({ chatbot: chatbots, creatorName: members.name })
    .from(chatbots)
    .innerJoin(members, eq(members.id, session.memberId))
    .where(eq(chatbots.id, session.chatbotId));
  if (!row) throw notFound('The session does not exist.');
  return {
    hash_id: session.hashId,
    title: session.title,
    creator_name: session.isVisitor ? null : row.creatorName,
    chatbot: {
      id: row.chatbot.id,
      hash_id: row.chatbot.hashId,
      en_name: row.chatbot.enName,
      ko_name: row.chatbot.koName,
      profile_image_url: row.chatbot.profileImageUrl,
      is_public: row.chatbot.isPublic,
    },
    last_chat_at: session.lastChatAt?.toISOString() ?? null,
    created_at: session.createdAt.toISOString(),
  };
}

export async function getPublicSession(q: Queryable, tenant: TenantRow, hash: string): Promise<PublicSession> {
  return toPublicSessionDto(q, await findPublicSession(q, tenant, hash));
}

/**
 * A file of a shared session, read without signing in: only while the session (of this tenant) is
 * shared, only a file attached to one of its messages (an upload or a generated image), and only a
 * public one. Anything else is 404, the answer of an unknown id, so nothing is hinted.
 */
export async function downloadSharedSessionFile(
  { db, store }: Pick<AppDeps, 'db' | 'store'>,
  tenant: TenantRow,
  hash: string,
  id: number,
): Promise<FileDownload> {
  const session = await sharedSession(db, tenant, hash);
  // The same bare 404 as for a file the session does not have.
  if (!session) throw notFound();
  const attached = db
    .select({ one: sql`1` })
    .from(sessionMessageFiles)
    .innerJoin(sessionMessages, eq(sessionMessages.id, sessionMessageFiles.messageId))
    .where(and(eq(sessionMessageFiles.fileId, files.id), eq(sessionMessages.sessionId, session.id)));
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenant.id), eq(files.id, id), publicAccessLevel, sql`exists ${attached}`));
  if (!row) throw notFound();
  return openStored(store, row);
}

export async function getPublicHistory(
  q: Queryable,
  tenant: TenantRow,
  hash: string,
  query: { size: number; first_id?: number },
): Promise<z.output<typeof historyResponseSchema>> {
  const session = await findPublicSession(q, tenant, hash);
  // Its files at the session's public path: a visitor has no token for the member's own.
  return historyPage(q, session, query, { kind: 'visitor', sessionHash: session.hashId });
}

/**
 * Only an untitled session a visitor started is titled: a member's shared session has its title
 * already, and a visitor must not make anyone else's session call the model again.
 */
export async function generatePublicTitle(deps: TitleDeps, tenant: TenantRow, hash: string, language: SupportedLanguage | undefined): Promise<PublicSession> {
  let session = await findPublicSession(deps.db, tenant, hash);
  if (session.isVisitor && session.title === null) session = await titleSession(deps, session, language ?? FALLBACK_LANGUAGE);
  return toPublicSessionDto(deps.db, session);
}

/** Public chatbots a visitor may chat with: public, of the tenant, with a creator still approved. */
const visitorChatbot = (tenant: TenantRow) => and(eq(chatbots.tenantId, tenant.id), eq(chatbots.isPublic, true), eq(members.status, 'approved'));

/**
 * A public chatbot by its hash id or its custom public link, as its public page shows it, with
 * what a visitor may use in its chat. 404 for anything a visitor may not chat with.
 */
export async function getPublicChatbot(db: Database, tenant: TenantRow, hash: string, features: { webSearch: boolean }): Promise<PublicChatbot> {
  const [row] = await db
    .select({ chatbot: chatbots, creatorName: members.name, reasons: llmModels.supportsReasoning })
    .from(chatbots)
    .innerJoin(members, eq(members.id, chatbots.creatorId))
    .innerJoin(llmModels, eq(llmModels.id, chatbots.llmModelId))
    .where(and(visitorChatbot(tenant), or(eq(chatbots.hashId, hash), eq(chatbots.publicHashId, hash))));
  if (!row) throw notFound('The chatbot does not exist.');
  const { chatbot } = row;
  const categoryRows = await db
    .select({ id: categories.id, en_name: categories.enName, ko_name: categories.koName })
    .from(chatbotCategories)
    .innerJoin(categories, eq(categories.id, chatbotCategories.categoryId))
    .where(and(eq(chatbotCategories.tenantId, tenant.id), eq(chatbotCategories.chatbotId, chatbot.id)))
    .orderBy(asc(categories.sortOrder), asc(categories.id));
  return {
    id: chatbot.id,
    hash_id: chatbot.hashId,
    public_hash_id: chatbot.publicHashId,
    en_name: chatbot.enName,
    ko_name: chatbot.koName,
    profile_image_url: chatbot.profileImageUrl,
    en_key_features: chatbot.enKeyFeatures,
    ko_key_features: chatbot.koKeyFeatures,
    categories: categoryRows,
    creator_name: row.creatorName,
    visitor_modes: { thinking: row.reasons, web_search: features.webSearch, task_modes: await listTaskModes(db, tenant.id, FALLBACK_LANGUAGE) },
  };
}

/** A visitor continues only a visitor session of this chatbot's creator, never the creator's own chats. */
async function findVisitorSession(q: Queryable, creator: MemberRow, hash: string): Promise<SessionRow> {
  const [session] = await q
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, creator.tenantId), eq(sessions.memberId, creator.id), eq(sessions.isVisitor, true), eq(sessions.hashId, hash)));
  if (!session) throw notFound('The session does not exist.');
  return session;
}

/**
 * A signed-out visitor's send to a public chatbot (404 for any other chatbot, and for one whose
 * creator is gone or no longer approved). The send runs as the chatbot's creator: their model
 * permissions and credits apply (402 when depleted, which the client shows as the chatbot
 * creator's depletion), the answer comes in the visitor's language, and the session it starts is
 * a public visitor session that stays out of the creator's chats.
 */
export async function checkPublicSend(deps: SendDeps, tenant: TenantRow, chatbotId: number, body: z.output<typeof publicChatBodySchema>): Promise<CheckedSend> {
  const [row] = await deps.db
    .select({ creator: members })
    .from(chatbots)
    .innerJoin(members, eq(members.id, chatbots.creatorId))
    .where(and(visitorChatbot(tenant), eq(chatbots.id, chatbotId)));
  if (!row) throw notFound();
  // A visitor has no upload path, so no file of theirs exists to attach (the creator's must not be).
  if (body.file_ids.length > 0) throw new AppError(403, 'visitor_files_not_allowed', 'Files cannot be attached in a public chat.');
  const payer: MemberRow = { ...row.creator, language: body.language ?? FALLBACK_LANGUAGE };
  const send = await checkSend(
    deps,
    tenant,
    payer,
    chatbotId,
    {
      text: body.text,
      session_hash_id: body.session_hash_id,
      session_title: body.session_title,
      task_mode_id: body.task_mode_id,
      web_search: body.web_search,
      thinking: body.thinking,
      file_ids: [],
      is_test: false,
    },
    // A tool acts for a member of the organisation: never for a signed-out visitor, whoever pays.
    { findSession: findVisitorSession, billing: { billedToCreator: true }, tools: false },
  );
  return { ...send, newSession: { isPublic: true, isVisitor: true } };
}

/** Checks and opens a visitor's turn; a 402 names the chatbot creator's depletion (spec §4). */
export async function openPublicTurn(
  deps: SendDeps & Pick<ChatDeps, 'answers'>,
  tenant: TenantRow,
  chatbotId: number,
  body: z.output<typeof publicChatBodySchema>,
): Promise<ChatTurn> {
  return openTurn(deps.db, await checkPublicSend(deps, tenant, chatbotId, body), deps.answers.lease);
}
