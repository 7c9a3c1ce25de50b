/**
 * `npm run bench:search`: search across my chats (GET /sessions/?search_term=…) on PostgreSQL
 * (BENCH_DATABASE_URL or TEST_DATABASE_URL; BENCH_SEARCH_DB=pglite for PGlite). On a fresh database
 * with the demo tenant, seeds BENCH_SESSIONS sessions (default 10,000) with BENCH_MESSAGES_PER_SESSION
 * messages each (default 20: 200,000 messages) of English and Korean words with generate_series.
 * First all of them are the demo member's (the worst case: every message is one the search may have
 * to read), then the same chats are spread over BENCH_SPREAD_MEMBERS members (default 100). In each
 * layout, runs each representative search BENCH_RUNS times (default 30; BENCH_PASSES passes) through
 * the service the endpoint calls (ranking and snippets included) and prints p50/p95 with the index
 * scans of its plan as the service's prepared statement gets it, with its settings (BENCH_SEARCH_PLANS=1: the whole
 * EXPLAIN (ANALYZE, BUFFERS)). Also prints what the search indexes cost one write of a long answer
 * (every flush of a streaming answer pays it again). Figures only; nothing is asserted.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../src/server/db/client';
import { type MemberRow, rowsOf } from '../src/server/db/rows';
import { chatbots, members, tenants } from '../src/server/db/schema';
import { DEMO_MEMBER, seedDemoTenant } from '../src/server/db/seed';
import { SEARCH_SETTINGS, searchSessions, sessionSearchStatement } from '../src/server/domains/sessions/search';
import { searchWords } from '../src/shared/domain/sessionSearch';
import { envInt, ms, openBenchDatabase, percentile } from './benchSupport';

const SESSIONS = envInt('BENCH_SESSIONS', 10_000);
const PER_SESSION = envInt('BENCH_MESSAGES_PER_SESSION', 20);
const RUNS = envInt('BENCH_RUNS', 30);
const PASSES = envInt('BENCH_PASSES', 1);
const SPREAD_MEMBERS = envInt('BENCH_SPREAD_MEMBERS', 100);
const KIND = process.env.BENCH_SEARCH_DB === 'pglite' ? 'pglite' : 'postgres';

/**
 * Words of chats at work, most common first: each message draws 10-40 of them with a skewed
 * distribution (word i of n with probability ~ (i/n)^(1/3) - ((i-1)/n)^(1/3): "the" in 20% of
 * draws, the last words in under 0.3%), plus two random Hangul syllable pairs for variety.
 */
const ENGLISH = `the a to and of in is for that it with on as this be are can you your we our not or by from at have will
project report meeting deploy server database customer schedule budget invoice contract design review release
error timeout login password email summary translate draft marketing sales quarter revenue forecast policy
python javascript query index performance latency memory cache network security backup migration test`.split(/\s+/);
const KOREAN = `회의 일정 보고서 검색 고객 예산 계약 디자인 배포 서버 데이터 데이터베이스 오류 비밀번호 이메일 요약 번역 초안
마케팅 매출 분기 정책 성능 보안 백업 테스트 프로젝트 개발 기획 문서 자료 분석 결과 내용 확인 요청 답변 질문 방법
사용자 관리자 설정 변경 추가 삭제 수정 시간 오늘 내일 다음 주 월요일 금요일 한국어 영어 정리 작성 준비 발표`.split(/\s+/);

/** The searches of the issue: an English word, Korean of 2 and 3 syllables, a rare term, a common term. */
const SEARCHES: { label: string; term: string }[] = [
  { label: 'English word', term: 'deploy' },
  { label: 'English, two words', term: 'budget review' },
  { label: 'Korean, 2 syllables', term: '검색' },
  { label: 'Korean, 3 syllables', term: '보고서' },
  { label: 'Korean, two 2-syllable', term: '회의 일정' },
  { label: 'rare term', term: 'zyxwvut' },
  { label: 'rare Korean term', term: '양자컴퓨터' },
  { label: 'common term', term: 'the' },
];
/** Planted in a handful of messages. */
const RARE = ['zyxwvut', '양자컴퓨터'];

/** A search's timing and the plan PostgreSQL runs for it. */
interface Measured {
  label: string;
  term: string;
  found: number;
  lowerBound: boolean;
  p50: number;
  p95: number;
  plan: string[];
}

/**
 * Each search RUNS times through the service (after 2 warm-ups), then the plan of its statement as
 * the service sends it: prepared, executed 6 times first (PostgreSQL may then switch to a generic
 * plan), in a transaction with the service's settings, EXPLAIN (ANALYZE, BUFFERS) EXECUTE.
 */
async function measure(db: Database, member: MemberRow): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const { label, term } of SEARCHES) {
    const words = searchWords(term);
    const query = { page: 1, size: 30 };
    let result: Awaited<ReturnType<typeof searchSessions>> | undefined;
    const times: number[] = [];
    for (let run = 0; run < RUNS + 2; run++) {
      const t0 = performance.now();
      result = await searchSessions(db, member, words, query);
      if (run >= 2) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const statement = new PgDialect().sqlToQuery(sessionSearchStatement(member, words, query));
    const args = statement.params.map(literal).join(', ');
    const plan = await db.transaction(async (tx) => {
      await tx.execute(SEARCH_SETTINGS);
      await tx.execute(sql.raw(`prepare bench_search as ${statement.sql}`));
      for (let run = 0; run < 6; run++) await tx.execute(sql.raw(`execute bench_search(${args})`));
      const rows = rowsOf<Record<string, string>>(await tx.execute(sql.raw(`explain (analyze, buffers) execute bench_search(${args})`)));
      await tx.execute(sql.raw('deallocate bench_search'));
      return rows.map((row) => Object.values(row)[0]!);
    });
    measured.push({
      label,
      term,
      found: result!.total_items,
      lowerBound: result!.total_is_lower_bound === true,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      plan,
    });
  }
  return measured;
}

/** The indexes (or sequential scans) the plan actually ran to find messages and the member's sessions. */
function accessPaths(plan: string[]): string[] {
  const ran = plan.filter((line) => !line.includes('never executed'));
  const paths = ran.flatMap((line) => {
    const index = /Index (?:Only )?Scan(?: Backward)? (?:on|using) ((?:session_messages|sessions)_\w+_idx)/.exec(line)?.[1];
    if (index) return [index];
    return /Seq Scan on (session_messages|sessions)\b/.exec(line) ? [`seq scan on ${/Seq Scan on (\w+)/.exec(line)![1]}`] : [];
  });
  return [...new Set(paths)];
}

/** One insert of a message of each length (English and Korean words): the indexes' share of a write. */
async function measureLongWrites(db: Database, tenantId: number) {
  const [session] = rowsOf<{ id: number }>(await db.execute(sql`select id from sessions where hash_id like 'bench-%' limit 1`));
  console.log('\nwriting one long answer (trigram and bigram indexes included)');
  for (const length of [10_000, 100_000, 300_000]) {
    const words = [...ENGLISH, ...KOREAN];
    let text = '';
    for (let i = 0; text.length < length; i++) text += `${words[(i * 7919) % words.length]} `;
    const t0 = performance.now();
    await db.execute(sql`insert into session_messages (tenant_id, session_id, speaker_type, text) values (${tenantId}, ${session!.id}, 'chatbot', ${text})`);
    console.log(`${String(length).padStart(7)} characters | ${ms(performance.now() - t0).padStart(9)}`);
  }
}

function report(title: string, measured: Measured[]) {
  console.log(`\n${title}`);
  console.log('search                  | term          | found   | p50       | p95       | plan ran (indexes)');
  for (const { label, term, found, lowerBound, p50, p95, plan } of measured) {
    console.log(
      `${label.padEnd(23)} | ${term.padEnd(13)} | ${`${found}${lowerBound ? '+' : ''}`.padStart(7)} | ${ms(p50).padStart(9)} | ${ms(p95).padStart(9)} | ${accessPaths(plan).join(', ')}`,
    );
  }
  if (process.env.BENCH_SEARCH_PLANS) for (const { label, term, plan } of measured) console.log(`\n--- ${label} (${term})\n${plan.join('\n')}`);
}

async function main() {
  const handle = await openBenchDatabase(KIND);
  const { db } = handle;
  try {
    await seedDemoTenant(db, { subdomain: 'demo', tenantName: 'Demo' });
    const [tenant] = await db.select().from(tenants).where(eq(tenants.subdomain, 'demo'));
    const [member] = await db
      .select()
      .from(members)
      .where(and(eq(members.tenantId, tenant!.id), eq(members.email, DEMO_MEMBER.email)));
    const [chatbot] = await db.select().from(chatbots).where(eq(chatbots.tenantId, tenant!.id)).limit(1);
    const vocabulary = [...ENGLISH, ...KOREAN].join(' ');
    const started = performance.now();
    await db.execute(sql`
      insert into sessions (tenant_id, hash_id, chatbot_id, member_id, title, last_chat_at, created_at)
      select ${tenant!.id}, 'bench-' || n, ${chatbot!.id}, ${member!.id},
        (select string_agg(w[1 + floor(power(random(), 3) * array_length(w, 1))::int], ' ') from (select string_to_array(${vocabulary}, ' ') as w) v, generate_series(1, 3 + n % 4) where n > 0),
        now() - n * interval '7 minutes', now() - n * interval '7 minutes'
      from generate_series(1, ${SESSIONS}) as n`);
    await db.execute(sql`
      insert into session_messages (tenant_id, session_id, speaker_type, text, created_at)
      select s.tenant_id, s.id, (case when k % 2 = 1 then 'member' else 'chatbot' end)::speaker_type,
        (select string_agg(w[1 + floor(power(random(), 3) * array_length(w, 1))::int], ' ') from (select string_to_array(${vocabulary}, ' ') as w) v, generate_series(1, 10 + (k * 7 + s.id) % 31) where s.id > 0)
          || ' ' || chr(44032 + floor(random() * 11172)::int) || chr(44032 + floor(random() * 11172)::int)
          || ' ' || chr(44032 + floor(random() * 11172)::int) || chr(44032 + floor(random() * 11172)::int),
        s.created_at + k * interval '1 second'
      from sessions s cross join generate_series(1, ${PER_SESSION}) as k
      where s.hash_id like 'bench-%'`);
    await db.execute(sql`
      update session_messages set text = text || ' ' || ${RARE[0]} || ' ' || ${RARE[1]}
      where id in (select id from session_messages order by id desc limit 5)`);
    const seeded = performance.now() - started;
    await db.execute(sql`vacuum analyze sessions`);
    await db.execute(sql`vacuum analyze session_messages`);
    const [counts] = rowsOf<{ sessions: number; messages: number }>(
      await db.execute(sql`select (select count(*) from sessions)::int as sessions, (select count(*) from session_messages)::int as messages`),
    );
    console.log(
      `${KIND}: ${counts?.sessions} sessions, ${counts?.messages} messages, seeded in ${ms(seeded)} (+ vacuum analyze); load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
    console.log(`${RUNS} runs each after 2 warm-ups, page 1 of 30, through searchSessions; found with + is a lower bound (recency walk)`);
    await measureLongWrites(db, tenant!.id);
    for (let pass = 1; pass <= PASSES; pass++) {
      report(`pass ${pass}: all ${SESSIONS} sessions one member's (the worst case); load average ${loadavg()[0]!.toFixed(1)}`, await measure(db, member!));
    }

    // The same chats spread over SPREAD_MEMBERS members: the demo member keeps 1 in SPREAD_MEMBERS.
    await db.execute(sql`
      insert into members (tenant_id, email, name, status)
      select ${tenant!.id}, 'bench-' || n || '@example.com', 'Bench ' || n, 'approved' from generate_series(2, ${SPREAD_MEMBERS}) as n`);
    await db.execute(sql`
      update sessions set member_id = spread.ids[1 + sessions.id % ${SPREAD_MEMBERS}]
      from (select array_agg(id order by id) as ids from members where tenant_id = ${tenant!.id} and (id = ${member!.id} or email like 'bench-%')) as spread
      where sessions.hash_id like 'bench-%'`);
    await db.execute(sql`vacuum analyze sessions`);
    for (let pass = 1; pass <= PASSES; pass++) {
      report(
        `pass ${pass}: the same chats spread over ${SPREAD_MEMBERS} members (${SESSIONS / SPREAD_MEMBERS} sessions each); load average ${loadavg()[0]!.toFixed(1)}`,
        await measure(db, member!),
      );
    }
  } finally {
    await handle.close();
  }
}

/** A parameter written into the statement, for PREPARE … AS and EXECUTE (…) in SQL. */
function literal(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
}

await main();
