import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type MemberRow, type SessionRow, fromJson, rowFromJson, rowsOf } from '../../db/rows';
import { sessionMessageFiles, sessionMessages, sessions } from '../../db/schema';
import { type CreditLimit, type Reservation, writeReservation } from '../credits/service';
import type { AnswerLease } from './liveAnswers';

/** The values of a session a send creates. */
export type NewSession = Omit<typeof sessions.$inferInsert, 'id'>;

export interface TurnStart {
  session: SessionRow;
  memberMessageId: number;
  answerId: number;
  /** The credits held for the answer, and the limits as they stood before (openTurn refuses a send with them). */
  reservation: { held: Reservation; before: CreditLimit[] } | null;
}

/** What a paid send wants to reserve (it gets less when the member has less left), and from whom. */
export interface TurnReservation {
  member: MemberRow;
  amount: number;
}

/**
 * Saves the start of a turn in one statement: the session when the send creates it, the member's
 * message, the answer's placeholder (owned by `lease`), the attached files' links and, for a paid send, the credit
 * reservation with its balance moves. One statement is atomic by itself, so it needs no
 * transaction, and it costs one round trip where a transaction of three inserts and then the
 * reservation took six (issue 6: every round trip before the first token waits its turn on a busy
 * server). The reservation's balance locks are held only while the statement runs.
 */
export async function saveTurnStart(
  db: Database,
  target: SessionRow | NewSession,
  turn: { tenantId: number; text: string; modelId: number; fileIds: number[]; estimatedInputTokens: number },
  lease: AnswerLease,
  reserve?: TurnReservation,
): Promise<TurnStart> {
  const existing = 'id' in target ? target : null;
  const { tenantId, text, modelId, fileIds, estimatedInputTokens } = turn;
  const sessionId = existing ? existing.id : sql<number>`(select id from new_session)`;
  const memberMessageId = sql<number>`(select id from new_messages where speaker_type = 'member')`;
  const answerId = sql<number>`(select id from new_messages where speaker_type = 'chatbot')`;
  const ctes: SQL[] = [];
  if (!existing) ctes.push(sql`new_session as (${db.insert(sessions).values(target).returning().getSQL()})`);
  const messages = db
    .insert(sessionMessages)
    .values([
      { tenantId, sessionId, speakerType: 'member', text },
      {
        tenantId,
        sessionId,
        speakerType: 'chatbot',
        text: '',
        llmModelId: modelId,
        streaming: true,
        // Owned by this process from the start: a crash before its first flush still leaves it to the sweep.
        streamOwner: lease.owner,
        leaseExpiresAt: sql`now() + make_interval(secs => ${lease.seconds})`,
        // The estimate until the answer is saved with the provider's count; the sweep charges it for a cut-off answer.
        inputTokens: estimatedInputTokens,
      },
    ])
    .returning({ id: sessionMessages.id, speakerType: sessionMessages.speakerType });
  ctes.push(sql`new_messages as (${messages.getSQL()})`);
  if (fileIds.length > 0) {
    const links = db.insert(sessionMessageFiles).values(fileIds.map((fileId) => ({ tenantId, messageId: memberMessageId, fileId })));
    ctes.push(sql`new_links as (${links.getSQL()})`);
  }
  const columns = sql`${memberMessageId} as member_message_id, ${answerId} as answer_id, ${existing ? sql`null` : sql`(select row_to_json(new_session) from new_session)`} as session`;

  let row: Record<string, unknown> | undefined;
  let reservation: TurnStart['reservation'] = null;
  if (reserve) {
    const reserved = await writeReservation(db, reserve.member, reserve.amount, answerId, { also: sql`${sql.join(ctes, sql`, `)},`, extra: sql`, ${columns}` });
    row = reserved.row;
    reservation = { held: reserved.reservation, before: reserved.before };
  } else {
    [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`with ${sql.join(ctes, sql`, `)} select ${columns}`));
  }
  if (!row?.member_message_id || !row.answer_id) throw new Error('Message insert returned no row');
  return {
    session: existing ?? rowFromJson(sessions, fromJson<Record<string, unknown>>(row.session)),
    memberMessageId: Number(row.member_message_id),
    answerId: Number(row.answer_id),
    reservation,
  };
}
