import { type SQL, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type MemberRow, type SessionRow, fromJson, rowFromJson, rowsOf } from '../../db/rows';
import { sessionMessageFiles, sessionMessages, sessions } from '../../db/schema';
import { type CreditLimit, type Reservation, writeReservation } from '../credits/service';
import type { AnswerLease } from './liveAnswers';
import type { TurnPlace } from './turn';

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
 * message (not for a regeneration, which answers a stored one), the answer's placeholder following it (owned by `lease`), the attached files' links and, for a paid send, the credit
 * reservation with its balance moves. One statement is atomic by itself, so it needs no
 * transaction, and it costs one round trip where a transaction of three inserts and then the
 * reservation took six (issue 6: every round trip before the first token waits its turn on a busy
 * server). The reservation's balance locks are held only while the statement runs.
 */
export async function saveTurnStart(
  db: Database,
  target: SessionRow | NewSession,
  turn: { tenantId: number; text: string; modelId: number; fileIds: number[]; estimatedInputTokens: number; place: TurnPlace },
  lease: AnswerLease,
  reserve?: TurnReservation,
): Promise<TurnStart> {
  const existing = 'id' in target ? target : null;
  const { tenantId, text, modelId, fileIds, estimatedInputTokens, place } = turn;
  const sessionId = existing ? existing.id : sql<number>`(select id from new_session)`;
  const memberMessageId = place.questionId ?? sql<number>`(select id from new_question)`;
  const answerId = sql<number>`(select id from new_answer)`;
  const ctes: SQL[] = [];
  if (!existing) ctes.push(sql`new_session as (${db.insert(sessions).values(target).returning().getSQL()})`);
  // A message's ancestor bytes: its parent's, plus its parent's text (decision 0081).
  const through = (table: SQL) => sql<number>`${table}.ancestor_bytes + octet_length(${table}.text)`;
  if (place.questionId === null) {
    const ancestorBytes = place.parentId === null ? 0 : sql<number>`(select ${through(sql`p`)} from ${sessionMessages} p where p.id = ${place.parentId})`;
    const question = db
      .insert(sessionMessages)
      .values({ tenantId, sessionId, parentId: place.parentId, speakerType: 'member', text, ancestorBytes })
      .returning({ id: sessionMessages.id, through: through(sql`${sessionMessages}`).as('through') });
    ctes.push(sql`new_question as (${question.getSQL()})`);
    if (fileIds.length > 0) {
      const links = db.insert(sessionMessageFiles).values(fileIds.map((fileId) => ({ tenantId, messageId: memberMessageId, fileId })));
      ctes.push(sql`new_links as (${links.getSQL()})`);
    }
  }
  // The answer reads its question's id as a row of `new_question`, not a subquery: that way the
  // question is inserted first and takes the smaller id (a sibling's order, and a branch's newest message, follow ids).
  const question =
    place.questionId === null
      ? sql`new_question`
      : sql`(select id, ${through(sql`q`)} as through from ${sessionMessages} q where q.id = ${place.questionId}) as question`;
  // Owned by this process from the start (a crash before its first flush still leaves it to the sweep); `input_tokens`
  // is the estimate until the answer is saved with the provider's count, what the sweep charges for a cut-off answer.
  const answer = sql`insert into ${sessionMessages} (tenant_id, session_id, parent_id, ancestor_bytes, speaker_type, text, llm_model_id, streaming, stream_owner, lease_expires_at, input_tokens)
    select ${tenantId}, ${sessionId}, id, through, 'chatbot', '', ${modelId}, true, ${lease.owner}, now() + make_interval(secs => ${lease.seconds}), ${estimatedInputTokens} from ${question}
    returning id`;
  ctes.push(sql`new_answer as (${answer})`);
  // The new answer ends the active branch (null: the session's newest message), whichever branch was shown.
  if (existing?.activeLeafId != null)
    ctes.push(sql`active_branch as (${db.update(sessions).set({ activeLeafId: null }).where(eq(sessions.id, existing.id)).getSQL()})`);
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
