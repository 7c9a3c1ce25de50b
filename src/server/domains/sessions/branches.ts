/**
 * A session's messages form a tree: each message knows the one it follows (`parent_id`), and the
 * messages following the same one are its versions (regenerated answers, edited questions). What
 * the member sees, and what the next send continues, is one branch: from the active leaf up to the
 * first message (docs/decisions/0081-chat-branches.md).
 */
import { type SQL, and, asc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { SessionRow } from '../../db/rows';
import { sessionMessages, sessions } from '../../db/schema';
import { notFound } from '../../errors';

/** The last message of the session's active branch: the one the member chose, else the newest message. */
function activeLeaf(session: Pick<SessionRow, 'id' | 'activeLeafId'>): SQL<number | null> {
  const newest = sql`(select max(id) from ${sessionMessages} where session_id = ${session.id})`;
  if (session.activeLeafId === null) return sql`${newest}`;
  return sql`coalesce((select id from ${sessionMessages} where id = ${session.activeLeafId} and session_id = ${session.id}), ${newest})`;
}

/**
 * Where a walk up a branch starts: the active leaf, a given message (null: the branch is empty), or
 * the message before a given one (a history page's `first_id`; none when it is not in the session).
 */
export type BranchStart = { active: true } | { from: number | null } | { before: number };

function startOf(session: Pick<SessionRow, 'id' | 'activeLeafId'>, start: BranchStart): SQL | null {
  if ('active' in start) return activeLeaf(session);
  if ('before' in start) return sql`(select parent_id from ${sessionMessages} where id = ${start.before} and session_id = ${session.id})`;
  return start.from === null ? null : sql`${start.from}`;
}

/**
 * `branch(id, parent_id, depth, bytes)`: the branch up to `start` (depth 0), and on the start's row
 * the UTF-8 size of the whole branch up to it (its stored `ancestor_bytes` and its own text). One
 * primary-key step per message, so a page of a long branch costs what a page of a chain did.
 */
function walkUp(session: Pick<SessionRow, 'id'>, start: SQL): SQL {
  return sql`with recursive branch(id, parent_id, depth, bytes) as (
      select id, parent_id, 0, ancestor_bytes + octet_length(text) from ${sessionMessages} where id = ${start} and session_id = ${session.id}
      union all
      select m.id, m.parent_id, b.depth + 1, 0 from ${sessionMessages} m join branch b on m.id = b.parent_id
    )`;
}

/** Speaker and text of every message of a branch, oldest first (the history a send gives the model). */
export async function branchTexts(
  q: Queryable,
  session: Pick<SessionRow, 'id' | 'activeLeafId'>,
  start: BranchStart,
): Promise<{ id: number; speaker: 'member' | 'chatbot'; text: string }[]> {
  const from = startOf(session, start);
  if (!from) return [];
  const rows = rowsOf<{ id: number; speaker: 'member' | 'chatbot'; text: string }>(
    await q.execute(
      sql`${walkUp(session, from)} select t.id, t.speaker_type as speaker, t.text from branch join ${sessionMessages} t on t.id = branch.id order by branch.depth`,
    ),
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) })).reverse();
}

/**
 * A page of a branch: the ids of up to `size + 1` messages from `start` up (newest first) and, when
 * `countContext`, the estimated tokens of the branch from `start` to its first message (from the
 * start's stored `ancestor_bytes`, so an older page and the newest cost the same). The walk stops after the page: each step
 * adds exactly one message (a message has one parent), so the first `size + 1` rows the walk yields
 * are the page, and `LIMIT` ends the recursion there.
 */
export async function branchPage(
  q: Queryable,
  session: Pick<SessionRow, 'id' | 'activeLeafId'>,
  start: BranchStart,
  size: number,
  countContext: boolean,
): Promise<{ ids: number[]; contextTokens: number }> {
  const from = startOf(session, start);
  if (!from) return { ids: [], contextTokens: 0 };
  const rows = rowsOf<{ id: number; depth: number; bytes: string | number }>(
    await q.execute(sql`${walkUp(session, from)} select id, depth, bytes from branch limit ${size + 1}`),
  );
  rows.sort((a, b) => Number(a.depth) - Number(b.depth));
  return { ids: rows.map((row) => Number(row.id)), contextTokens: countContext ? Math.ceil(Number(rows[0]?.bytes ?? 0) / 4) : 0 };
}

/** The messages following the same message as `parentId` (the first messages when null). */
const childrenOf = (sessionId: number, parentId: number | null | SQL) =>
  and(eq(sessionMessages.sessionId, sessionId), parentId === null ? isNull(sessionMessages.parentId) : sql`${sessionMessages.parentId} = ${parentId}`);

/** The messages of `ids` with how many versions their point of the conversation has, and which one each is. */
export async function messagesWithSiblings(q: Queryable, session: Pick<SessionRow, 'id' | 'tenantId'>, ids: number[]) {
  if (ids.length === 0) return [];
  // The outer row's columns named in full: drizzle leaves a lone table's columns unqualified, which the inner `s` would take.
  const outer = (column: string) => sql`${sql.identifier('session_messages')}.${sql.identifier(column)}`;
  const siblings = (extra: SQL) =>
    sql<number>`(case when ${outer('parent_id')} is null
      then (select count(*) from ${sessionMessages} s where s.session_id = ${session.id} and s.parent_id is null ${extra})
      else (select count(*) from ${sessionMessages} s where s.session_id = ${session.id} and s.parent_id = ${outer('parent_id')} ${extra}) end)`.mapWith(
      Number,
    );
  return q
    .select({ ...getTableColumns(sessionMessages), siblingCount: siblings(sql``), siblingPosition: siblings(sql`and s.id <= ${outer('id')}`) })
    .from(sessionMessages)
    .where(and(eq(sessionMessages.tenantId, session.tenantId), eq(sessionMessages.sessionId, session.id), inArray(sessionMessages.id, ids)))
    .orderBy(asc(sessionMessages.id));
}

/** A member message of the session (the one a regeneration answers again, or an edit replaces); 404 otherwise. */
export async function findQuestion(q: Queryable, session: Pick<SessionRow, 'id'>, messageId: number) {
  const [message] = await q
    .select({ id: sessionMessages.id, parentId: sessionMessages.parentId, text: sessionMessages.text })
    .from(sessionMessages)
    .where(and(eq(sessionMessages.id, messageId), eq(sessionMessages.sessionId, session.id), eq(sessionMessages.speakerType, 'member')));
  if (!message) throw notFound('The message does not exist in this session.');
  return message;
}

/** Makes the branch ending at the newest message under `messageId` the session's active one (the newest message under a message is always the end of a branch). */
async function activateBelow(q: Queryable, session: SessionRow, messageId: number): Promise<SessionRow> {
  const [leaf] = rowsOf<{ id: number }>(
    await q.execute(sql`with recursive below(id) as (
        select ${messageId}::integer
        union all
        select m.id from ${sessionMessages} m join below b on m.parent_id = b.id and m.session_id = ${session.id}
      )
      select max(id) as id from below`),
  );
  const activeLeafId = Number(leaf?.id ?? messageId);
  await q.update(sessions).set({ activeLeafId }).where(eq(sessions.id, session.id));
  return { ...session, activeLeafId };
}

/**
 * Whether the message is on the active branch: a walk up from the active leaf that stops below the
 * message's id (ids grow along a branch), so it costs the distance from the leaf, not the branch.
 */
async function onActiveBranch(q: Queryable, session: SessionRow, messageId: number): Promise<boolean> {
  const rows = rowsOf<{ id: number }>(
    await q.execute(sql`with recursive branch(id, parent_id) as (
        select id, parent_id from ${sessionMessages} where id = ${activeLeaf(session)} and session_id = ${session.id} and id >= ${messageId}
        union all
        select m.id, m.parent_id from ${sessionMessages} m join branch b on m.id = b.parent_id where m.id >= ${messageId}
      )
      select id from branch where id = ${messageId}`),
  );
  return rows.length > 0;
}

/**
 * Shows a message on its branch (a search result's): when it is on the active branch, nothing
 * changes (the member's leaf below it is kept); else the branch through it, continued to its newest
 * message, becomes active. 404 for a message not in the session. Returns the session as it now is.
 */
export async function showBranchThrough(q: Queryable, session: SessionRow, messageId: number): Promise<SessionRow> {
  const [message] = await q
    .select({ id: sessionMessages.id })
    .from(sessionMessages)
    .where(and(eq(sessionMessages.id, messageId), eq(sessionMessages.sessionId, session.id)));
  if (!message) throw notFound('The message does not exist in this session.');
  return (await onActiveBranch(q, session, messageId)) ? session : activateBelow(q, session, messageId);
}

/**
 * Makes the `position`-th version of `messageId` the active branch, continued to its newest message.
 * 404 for a message not in the session or a position it does not have. Returns the session as it now is.
 */
export async function chooseBranch(q: Queryable, session: SessionRow, messageId: number, position: number): Promise<SessionRow> {
  const [message] = await q
    .select({ parentId: sessionMessages.parentId })
    .from(sessionMessages)
    .where(and(eq(sessionMessages.id, messageId), eq(sessionMessages.sessionId, session.id)));
  if (!message) throw notFound('The message does not exist in this session.');
  const [version] = await q
    .select({ id: sessionMessages.id })
    .from(sessionMessages)
    .where(childrenOf(session.id, message.parentId))
    .orderBy(asc(sessionMessages.id))
    .limit(1)
    .offset(position - 1);
  if (!version) throw notFound('The message has no such version.');
  return activateBelow(q, session, version.id);
}
