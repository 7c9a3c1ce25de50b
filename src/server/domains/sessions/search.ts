/**
 * Search across my chats (GET /sessions/?search_term=…, docs/decisions/0073-chat-search.md): the
 * member's own sessions whose title, or one of whose messages, contains every word, ranked title
 * matches first, then by the number of matching messages, then most recent chat (a term in more
 * than SESSION_SEARCH_RANKED_MATCHES_MAX messages: title matches, then most recent chat).
 */
import { type SQL, and, eq, ilike, sql } from 'drizzle-orm';
import type { SessionSearchMatch, SessionSearchPage } from '../../../shared/api/sessions';
import { SESSION_SEARCH_RANKED_MATCHES_MAX, characterCount, matchRanges } from '../../../shared/domain/sessionSearch';
import type { Queryable } from '../../db/client';
import { type MemberRow, fromJson, rowFromJson, rowsOf } from '../../db/rows';
import { sessionMessages, sessions } from '../../db/schema';
import type { PageRequest } from '../../shared/pagination';
import { escapeLike } from '../chatbots/service';
import { ownChats, toSessionDto } from './service';

/** Characters of a message shown before its first match, and in all: two lines of the sidebar. */
const SNIPPET_LEAD = 30;
const SNIPPET_LENGTH = 140;

/** A word with no trigram: the bigram index of migration 0039 finds it. */
const isPair = (word: string) => characterCount(word) === 2;

/** Each word its own `ILIKE '%word%'`, which the trigram index serves (it cannot serve `ILIKE ALL (array)`). */
const likeAll = (column: SQL, words: readonly string[]): SQL => and(...words.map((word) => ilike(column, `%${escapeLike(word)}%`)))!;

/**
 * The same test as `likeAll`, in a form no index serves: the rows it reads come from elsewhere (a
 * session's own messages, or the bigram index), and a trigram index scan per session would read
 * the whole index for a 2-character word (seconds).
 */
const containsAll = (column: SQL, words: readonly string[]): SQL => and(...words.map((word) => sql`strpos(lower(${column}), lower(${word})) > 0`))!;

/**
 * The CTE `matches`: at most SESSION_SEARCH_RANKED_MATCHES_MAX + 1 of the tenant's finished messages
 * containing every word, from an index, whatever the plan (the indexes hold no streaming answer). Words of 3+ characters: the trigram
 * index serves their ILIKEs. With a 2-character word, the bigram index alone finds the candidates
 * (its `@>` is exact) and the other words are tested on them in a form no index serves: in one bitmap
 * with the trigram index, whose matches are always rechecked, the recheck would compute
 * chat_search_bigrams for every row (seconds).
 */
function matchesCte(tenantId: number, words: readonly string[]): SQL {
  const pairs = words.filter(isPair);
  const found =
    pairs.length === 0
      ? likeAll(sql`${sessionMessages.text}`, words)
      : sql`chat_search_bigrams(${sessionMessages.text}) @> array[${sql.join(
          pairs.map((word) => sql`lower(${word})`),
          sql`, `,
        )}]::text[] and ${containsAll(sql`${sessionMessages.text}`, words)}`;
  return sql`matches as materialized (
      select ${sessionMessages.id} as id, ${sessionMessages.sessionId} as session_id from ${sessionMessages}
      where ${eq(sessionMessages.tenantId, tenantId)} and not ${sessionMessages.streaming} and ${found} limit ${SESSION_SEARCH_RANKED_MATCHES_MAX + 1})`;
}

/** The plain-text snippet of a message around its first match, with "…" where it is cut. */
export function snippetOf(
  window: { text: string; from: number; length: number },
  words: readonly string[],
): Pick<NonNullable<SessionSearchMatch['message']>, 'snippet' | 'ranges'> {
  // `from` counts code points from 1 (PostgreSQL's substr); the window is what it cut.
  const cutBefore = window.from > 1;
  const cutAfter = window.from - 1 + [...window.text].length < window.length;
  const snippet = `${cutBefore ? '…' : ''}${window.text.replace(/\s+/gu, ' ').trim()}${cutAfter ? '…' : ''}`;
  return { snippet, ranges: matchRanges(snippet, words) };
}

/**
 * The search's transaction settings. No sequential scan: the table holds every tenant's messages,
 * and a word the statistics call common may be rare in this tenant's (a scan meant to stop at the
 * cap would then read them all). No JIT: the bigram function's high COST (migration 0039) makes the
 * estimates large enough for it, and compiling took 30-80 ms of statements that run in 20-60.
 */
export const SEARCH_SETTINGS = sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`;

/** A row of the ranking statement: the state (common term, total) and one session of the page, if any. */
interface RankedRow {
  common: boolean;
  total: number;
  session: unknown;
  title_hit: boolean | null;
  matching: number | null;
  newest_id: number | null;
  speaker_type: 'member' | 'chatbot' | null;
  from: number | null;
  length: number | null;
  window: string | null;
}

/**
 * The statement that finds and ranks the page of sessions, with the count (exported for the bench's
 * EXPLAIN). Every part starts from the tenant's index matches or the member's own sessions (`mine`),
 * so that no plan can read messages row by row: a term with up to SESSION_SEARCH_RANKED_MATCHES_MAX matches is
 * ranked from them (`ranked`), a more common one walks `mine` from the most recent (`walked`,
 * newest matching message of each through the session index) and stops one past the page's end.
 * Each branch is gated by `state`, computed once, so only one runs.
 */
export function sessionSearchStatement(member: MemberRow, words: readonly string[], query: PageRequest & { chatbot_id?: number }): SQL {
  const offset = (query.page - 1) * query.size;
  const messageHit = containsAll(sql`${sessionMessages.text}`, words);
  // The snippet of the newest matching message starts SNIPPET_LEAD characters before the first word.
  const [firstWord = ''] = words;
  const from = sql`greatest(1, strpos(lower(${sessionMessages.text}), lower(${firstWord})) - ${SNIPPET_LEAD})`;
  return sql`with ${matchesCte(member.tenantId, words)},
    -- In the walk's order: the walk reads it as stored (a CTE scan, then a nested loop, keep their order) and stops.
    mine as materialized (
      select ${sessions.id} as id, coalesce(${containsAll(sql`${sessions.title}`, words)}, false) as title_hit,
        coalesce(${sessions.lastChatAt}, ${sessions.createdAt}) as recent
      from ${sessions} where ${ownChats(member, query.chatbot_id)}
      order by title_hit desc, recent desc, ${sessions.id} desc),
    state as materialized (select count(*) > ${SESSION_SEARCH_RANKED_MATCHES_MAX} as common from matches),
    ranked as materialized (
      select mine.id, mine.title_hit, mine.recent, hits.matching, hits.newest_id
      from mine left join (select session_id, count(*)::int as matching, max(id) as newest_id from matches group by session_id) as hits on hits.session_id = mine.id
      where not (select common from state) and (mine.title_hit or hits.session_id is not null)),
    walked as materialized (
      select mine.id, mine.title_hit, mine.recent, newest.id as newest_id
      from mine left join lateral (
        select ${sessionMessages.id} as id from ${sessionMessages}
        where ${sessionMessages.sessionId} = mine.id and ${messageHit} order by ${sessionMessages.id} desc limit 1) as newest on true
      where (select common from state) and (mine.title_hit or newest.id is not null)
      limit ${offset + query.size + 1})
    select state.common, (case when state.common then (select count(*) from walked) else (select count(*) from ranked) end)::int as total,
      (select row_to_json(own) from ${sessions} as own where own.id = page.id) as session, page.title_hit,
      coalesce(page.matching, (select count(*)::int from ${sessionMessages} where ${sessionMessages.sessionId} = page.id and ${messageHit})) as matching,
      newest.id as newest_id, newest.speaker_type, newest.from, newest.length, newest.window
    from state left join (
      (select id, title_hit, matching, newest_id, recent from ranked
        order by title_hit desc, coalesce(matching, 0) desc, recent desc, id desc limit ${query.size} offset ${offset})
      union all
      (select id, title_hit, null, newest_id, recent from walked order by title_hit desc, recent desc, id desc limit ${query.size} offset ${offset})
    ) as page on true
    left join lateral (
      select ${sessionMessages.id} as id, ${sessionMessages.speakerType} as speaker_type, ${from} as from, length(${sessionMessages.text}) as length,
        substr(${sessionMessages.text}, ${from}, ${SNIPPET_LENGTH}) as window
      from ${sessionMessages} where ${sessionMessages.id} = page.newest_id) as newest on true
    order by page.title_hit desc, coalesce(page.matching, 0) desc, page.recent desc, page.id desc`;
}

export async function searchSessions(
  q: Queryable,
  member: MemberRow,
  words: readonly string[],
  query: PageRequest & { chatbot_id?: number },
): Promise<SessionSearchPage> {
  const found = await q.transaction(async (tx) => {
    await tx.execute(SEARCH_SETTINGS);
    return rowsOf<RankedRow>(await tx.execute(sessionSearchStatement(member, words, query)));
  });
  // Every row carries the state; an empty page is one row without a session.
  const [state] = found;
  const rows = found.filter((row) => row.session !== null);
  const total = Number(state?.total ?? 0);
  const walkedPast = state?.common === true && total > query.page * query.size;
  return {
    items: rows.map((row) => {
      const session = rowFromJson(sessions, fromJson<Record<string, unknown>>(row.session));
      const message =
        row.newest_id === null || row.window === null
          ? null
          : {
              id: Number(row.newest_id),
              speaker_type: row.speaker_type!,
              ...snippetOf({ text: row.window, from: Number(row.from), length: Number(row.length) }, words),
            };
      return {
        ...toSessionDto(session, member.name),
        match: {
          title_ranges: row.title_hit && session.title ? matchRanges(session.title, words) : [],
          message_count: Number(row.matching ?? 0),
          message,
        },
      };
    }),
    total_items: total,
    total_pages: Math.ceil(total / query.size),
    page: query.page,
    page_size: query.size,
    ...(walkedPast ? { total_is_lower_bound: true } : {}),
  };
}
