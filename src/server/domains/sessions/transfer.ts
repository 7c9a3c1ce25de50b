import type { AppDeps } from '../../deps';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Session, SessionMessage } from '../../../shared/api/sessions';
import type { SessionExport, sessionExportSchema } from '../../../shared/api/sessionTransfer';
import { SESSION_EXPORT_VERSION } from '../../../shared/domain/sessionTransfer';
import { chatbotName } from '../../../shared/domain/chatbots';
import type { MemberRow } from '../../db/rows';
import { chatbots, sessionMessages, sessions } from '../../db/schema';
import { AppError } from '../../errors';
import { findVisibleChatbot } from '../chatbots/service';
import { findOwnSession, historyPage, newHashId, toSessionDto } from './service';

/** Pages of the history read for an export: large, since the whole chat is written at once. */
const EXPORT_PAGE_SIZE = 500;
/** Rows per insert of an import: well under PostgreSQL's 65,535 parameters per statement. */
const IMPORT_BATCH_SIZE = 500;

/**
 * The messages the member's history shows, oldest first: the history endpoint's own query
 * (`historyPage`), read to its beginning, so the export follows whatever the history shows.
 */
async function wholeHistory(db: AppDeps['db'], session: typeof sessions.$inferSelect): Promise<SessionMessage[]> {
  const pages: SessionMessage[][] = [];
  let firstId: number | undefined;
  for (;;) {
    const page = await historyPage(db, session, { size: EXPORT_PAGE_SIZE, first_id: firstId }, { kind: 'member' });
    pages.unshift(page.items);
    const oldest = page.items[0];
    if (!page.has_more || !oldest) break;
    firstId = oldest.id;
  }
  return pages.flat();
}

/** The member's chat as the JSON document of `GET /sessions/{hash}/export/` (the Markdown is written from it). */
export async function exportSession(deps: Pick<AppDeps, 'db' | 'clock'>, member: MemberRow, hash: string): Promise<SessionExport> {
  const { db } = deps;
  const session = await findOwnSession(db, member, hash);
  const [chatbot] = await db.select({ ko_name: chatbots.koName, en_name: chatbots.enName }).from(chatbots).where(eq(chatbots.id, session.chatbotId));
  const botName = chatbot ? chatbotName(chatbot, member.language) : '';
  const messages = (await wholeHistory(db, session)).filter((message) => !message.streaming || message.text !== '');
  return {
    version: SESSION_EXPORT_VERSION,
    exported_at: deps.clock().toISOString(),
    title: session.title,
    chatbot: { id: session.chatbotId, name: botName },
    messages: messages.map((message) => ({
      speaker: message.speaker_type,
      speaker_name: message.speaker_type === 'member' ? member.name : botName,
      created_at: message.created_at,
      text: message.text,
      // A message imported before keeps the names its original carried.
      attachments: [...(message.imported?.files ?? []), ...message.files.map((file) => ({ name: file.name, type: file.type }))],
      citations: message.citations,
      tool_calls: message.tool_calls,
      interrupted: message.interrupted,
      imported_at: message.imported?.at ?? null,
    })),
  };
}

/**
 * Recreates a chat from its JSON export as a new session of the member with the chatbot it names,
 * which the member must be able to chat with (the rule of every send and of moving a chat: 403
 * `chatbot_not_usable` otherwise, whatever the reason, so nothing is told about chatbots they cannot
 * see). The member's messages pass the organisation's input guard as a send would (restricted words,
 * personal data), the title is masked like a generated one. Messages keep their times and are marked
 * imported; nothing reaches a model and nothing is charged.
 */
export async function importSession(
  deps: Pick<AppDeps, 'db' | 'clock' | 'guard'>,
  member: MemberRow,
  document: z.output<typeof sessionExportSchema>,
): Promise<Session> {
  const { db, guard } = deps;
  try {
    await findVisibleChatbot(db, member, document.chatbot.id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw new AppError(403, 'chatbot_not_usable', 'You cannot chat with the chatbot this chat names.');
    throw error;
  }
  const at = deps.clock();
  const texts: string[] = [];
  for (const message of document.messages) texts.push(message.speaker === 'member' ? (await guard.check(member.tenantId, message.text)).text : message.text);
  const title = document.title ? await guard.maskAll(member.tenantId, document.title) : null;
  const session = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(sessions)
      .values({ tenantId: member.tenantId, hashId: newHashId(), chatbotId: document.chatbot.id, memberId: member.id, title, lastChatAt: at })
      .returning();
    if (!created) throw new Error('the imported session was not created');
    const rows = document.messages.map((message, index) => ({
      tenantId: member.tenantId,
      sessionId: created.id,
      speakerType: message.speaker,
      text: texts[index] ?? '',
      interrupted: message.interrupted,
      citations: message.citations,
      // Shown as they were, never run again; one still running when exported had ended by then.
      toolCalls: message.tool_calls.map((call) => (call.status === 'running' ? { ...call, status: 'stopped' as const } : call)),
      createdAt: new Date(message.created_at),
      imported: { at: at.toISOString(), files: message.attachments },
    }));
    for (let start = 0; start < rows.length; start += IMPORT_BATCH_SIZE) await tx.insert(sessionMessages).values(rows.slice(start, start + IMPORT_BATCH_SIZE));
    // One branch, as exported: each message follows the one inserted before it (ids rise in order),
    // above it the texts of all before it.
    await tx.execute(sql`
      update ${sessionMessages} m set parent_id = chain.previous_id, ancestor_bytes = chain.above
      from (
        select id, lag(id) over (order by id) as previous_id,
          coalesce(sum(octet_length(text)) over (order by id rows between unbounded preceding and 1 preceding), 0) as above
        from ${sessionMessages} where session_id = ${created.id}
      ) as chain
      where m.id = chain.id and chain.previous_id is not null`);
    return created;
  });
  return toSessionDto(session, member.name);
}
