import { getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import type { SessionRow } from '../db/rows';
import { sessionMessageFiles, sessionMessages, sessions } from '../db/schema';

/** The values of a session a send creates. */
export type NewSession = Omit<typeof sessions.$inferInsert, 'id'>;

export interface TurnStart {
  session: SessionRow;
  memberMessageId: number;
  answerId: number;
}

/**
 * Saves the start of a turn in one statement: the session when the send creates it, the member's
 * message, the answer's placeholder and the attached files' links. One statement is atomic by
 * itself, so it needs no transaction, and it costs one round trip where a transaction of three
 * inserts took five (issue 6: every round trip before the first token waits its turn on a busy
 * server).
 */
export async function saveTurnStart(
  db: Database,
  target: SessionRow | NewSession,
  turn: { tenantId: number; text: string; modelId: number; fileIds: number[] },
): Promise<TurnStart> {
  const existing = 'id' in target ? target : null;
  const created = existing ? null : db.$with('new_session').as(db.insert(sessions).values(target).returning());
  const sessionId = existing ? existing.id : sql<number>`(select id from new_session)`;
  const { tenantId, text, modelId, fileIds } = turn;
  const messages = db.$with('new_messages').as(
    db
      .insert(sessionMessages)
      .values([
        { tenantId, sessionId, speakerType: 'member', text },
        { tenantId, sessionId, speakerType: 'chatbot', text: '', llmModelId: modelId, streaming: true },
      ])
      .returning({ id: sessionMessages.id, speakerType: sessionMessages.speakerType }),
  );
  const theMemberMessage = sql<number>`(select id from new_messages where speaker_type = 'member')`;
  const links =
    fileIds.length > 0
      ? db.$with('new_links').as(
          db
            .insert(sessionMessageFiles)
            .values(fileIds.map((fileId) => ({ tenantId, messageId: theMemberMessage, fileId })))
            .returning({ fileId: sessionMessageFiles.fileId }),
        )
      : null;
  const ctes = [created, messages, links].filter((cte) => cte !== null);
  // Every column of the created session, read from the statement's own result.
  const sessionFields: Record<string, PgColumn> = created
    ? Object.fromEntries(Object.keys(getTableColumns(sessions)).map((key) => [key, created[key as keyof typeof sessions.$inferSelect]]))
    : {};
  const query = db
    .with(...ctes)
    .select({ id: messages.id, speakerType: messages.speakerType, session: sessionFields })
    .from(messages);
  const rows = await (created ? query.crossJoin(created) : query);
  const memberMessage = rows.find((row) => row.speakerType === 'member');
  const answer = rows.find((row) => row.speakerType === 'chatbot');
  if (!memberMessage || !answer) throw new Error('Message insert returned no row');
  return { session: existing ?? (memberMessage.session as unknown as SessionRow), memberMessageId: memberMessage.id, answerId: answer.id };
}
