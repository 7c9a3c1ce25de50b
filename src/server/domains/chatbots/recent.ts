/**
 * A member's recent chatbots (spec §7 relations): the non-default chatbots they chatted with or
 * opened from the Store, newest first, at most RECENT_CHATBOTS_KEPT. Shown at the top of the Store
 * and in the chat's chatbot switcher; a chatbot the member can no longer see is not listed.
 */
import { and, desc, eq, notInArray } from 'drizzle-orm';
import { RECENT_CHATBOTS_KEPT } from '../../../shared/domain/pagination';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { recentChatbots } from '../../db/schema';
import { findVisibleChatbot } from './service';

/** Puts the chatbot first in the member's recent ones and forgets those beyond RECENT_CHATBOTS_KEPT. */
export async function rememberRecentChatbot(q: Queryable, member: MemberRow, chatbotId: number, now = new Date()): Promise<void> {
  await q
    .insert(recentChatbots)
    .values({ tenantId: member.tenantId, memberId: member.id, chatbotId, usedAt: now })
    .onConflictDoUpdate({ target: [recentChatbots.memberId, recentChatbots.chatbotId], set: { usedAt: now } });
  const kept = q
    .select({ chatbotId: recentChatbots.chatbotId })
    .from(recentChatbots)
    .where(eq(recentChatbots.memberId, member.id))
    .orderBy(desc(recentChatbots.usedAt))
    .limit(RECENT_CHATBOTS_KEPT);
  await q.delete(recentChatbots).where(and(eq(recentChatbots.memberId, member.id), notInArray(recentChatbots.chatbotId, kept)));
}

/** `POST /chatbots/{id}/relations/`: only a chatbot the member can see (404 otherwise); default ones are not kept. */
export async function rememberChatbot(db: Database, member: MemberRow, chatbotId: number): Promise<void> {
  const { chatbot } = await findVisibleChatbot(db, member, chatbotId);
  if (chatbot.isDefault) return;
  await db.transaction((tx) => rememberRecentChatbot(tx, member, chatbot.id));
}

/** `DELETE /chatbots/{id}/relations/`: forgetting one that is not there is no error. */
export async function forgetChatbot(db: Database, member: MemberRow, chatbotId: number): Promise<void> {
  await db.delete(recentChatbots).where(and(eq(recentChatbots.memberId, member.id), eq(recentChatbots.chatbotId, chatbotId)));
}
