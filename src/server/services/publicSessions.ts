import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { PublicSession, publicChatBodySchema } from '../../shared/api/publicSessions';
import type { historyResponseSchema } from '../../shared/api/sessions';
import { FALLBACK_LANGUAGE, type SupportedLanguage } from '../../shared/domain/language';
import type { Queryable } from '../db/client';
import { chatbots, members, sessions } from '../db/schema';
import type { MemberRow, SessionRow, TenantRow } from '../db/rows';
import { notFound } from '../errors';
import { type ChatDeps, type ChatTurn, type CheckedSend, type SendDeps, checkSend, openTurn } from './chat';
import { historyPage } from './sessions';
import { type TitleDeps, titleSession } from './titles';

/** A public session of the tenant; 404 when it is private or does not exist (nothing tells them apart). */
async function findPublicSession(q: Queryable, tenant: TenantRow, hash: string): Promise<SessionRow> {
  const [session] = await q
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenant.id), eq(sessions.hashId, hash), eq(sessions.isPublic, true)));
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

export async function getPublicHistory(
  q: Queryable,
  tenant: TenantRow,
  hash: string,
  query: { size: number; first_id?: number },
): Promise<z.output<typeof historyResponseSchema>> {
  return historyPage(q, await findPublicSession(q, tenant, hash), query);
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
export async function checkPublicSend(
  deps: SendDeps,
  tenant: TenantRow,
  chatbotId: number,
  body: z.output<typeof publicChatBodySchema>,
): Promise<CheckedSend> {
  const [row] = await deps.db
    .select({ creator: members })
    .from(chatbots)
    .innerJoin(members, eq(members.id, chatbots.creatorId))
    .where(and(eq(chatbots.tenantId, tenant.id), eq(chatbots.id, chatbotId), eq(chatbots.isPublic, true), eq(members.status, 'approved')));
  if (!row) throw notFound();
  const payer: MemberRow = { ...row.creator, language: body.language ?? FALLBACK_LANGUAGE };
  const send = await checkSend(
    deps,
    tenant,
    payer,
    chatbotId,
    { text: body.text, session_hash_id: body.session_hash_id, session_title: body.session_title, file_ids: [], is_test: false },
    { findSession: findVisitorSession, billing: { billedToCreator: true } },
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
