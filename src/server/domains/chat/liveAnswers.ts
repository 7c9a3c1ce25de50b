import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Citation, ToolCall } from '../../../shared/api/chat';
import type { AppDeps } from '../../deps';
import { rowsOf } from '../../db/rows';
import { sessionMessages } from '../../db/schema';

/**
 * The answers this server process is streaming (DESIGN §6): each one's text is written as it
 * streams and its lease renewed by one statement per process every STREAM_FLUSH_SECONDS, however
 * many answers stream; an answer whose lease ran out belongs to nobody, and the sweep of any process
 * saves it as interrupted (domains/chat/service sweepAbandonedAnswers). Also the shutdown's deadline for
 * streams. docs/decisions/0007-chat-answer-leases.md explains the choices.
 */

/** The process that owns the answers it starts, and for how long each renewal holds. */
export interface AnswerLease {
  owner: string;
  seconds: number;
}

/** Why the process cut an answer off (the reason of its `signal`). */
export class AnswerCutOff extends Error {
  constructor(readonly why: 'shutdown' | 'lost') {
    super(why === 'shutdown' ? 'the server is shutting down' : 'another process took the answer over');
  }
}

/** The reason a stream was cut off by its process, or null (still going, or stopped by its client). */
export const cutOffOf = (signal: AbortSignal): AnswerCutOff['why'] | null =>
  signal.aborted && signal.reason instanceof AnswerCutOff ? signal.reason.why : null;

/** What of an answer has streamed so far: what its member saw. */
export interface AnswerContent {
  text: string;
  reasoning: string;
  citations: Citation[];
  /** Tool calls as they stand (a running one too: a sweep saves it as stopped). */
  toolCalls: ToolCall[];
}

export interface LiveAnswer {
  /** Aborted when the process cuts the answer off: its shutdown deadline passed, or its lease was lost to a sweep. */
  readonly signal: AbortSignal;
  /** The answer as far as it streamed. */
  readonly content: AnswerContent;
  /** Records what streamed (the next flush writes it): a field assignment, once per delta. */
  update(content: Partial<AnswerContent>): void;
  /** Its own final save is running: a flush that finds it saved meanwhile has not lost it. */
  finishing(): void;
  /** Saved by its own final save. */
  done(): void;
  /**
   * Its own final save failed: the next flush writes `content` with the lease expired, so that a
   * sweep saves it as interrupted as soon as the database takes writes again.
   */
  handOver(content: AnswerContent): void;
}

export interface LiveAnswers {
  readonly lease: AnswerLease;
  /** Registers an answer the process starts streaming (its row already names this owner). */
  track(answerId: number): LiveAnswer;
  /** Writes every answer that changed and renews every lease, in one statement. */
  flush(): Promise<void>;
  /**
   * Shutdown: lets the answers stream until `timeoutMs`, then cuts off the rest and waits (at most
   * `saveTimeoutMs`) until they are saved or handed over to the sweep.
   */
  drain(timeoutMs: number, saveTimeoutMs: number): Promise<void>;
  /** Answers being streamed or saved now. */
  readonly streaming: number;
}

/**
 * Text PostgreSQL can store: no NUL character, and no lone surrogate (jsonb refuses one), each of
 * which a model could emit; one bad answer must not fail the flush of every answer of the process.
 */
export const storableText = (text: string): string => text.replace(/\p{Cs}/gu, '\uFFFD').replaceAll('\u0000', '');

interface Entry {
  id: number;
  content: AnswerContent;
  /** Bumped by every update; the flush remembers which version it wrote. */
  version: number;
  written: number;
  state: 'streaming' | 'finishing' | 'handedOver';
  controller: AbortController;
  /** Resolves once the stream no longer needs the process (saved, or handed over). */
  released: Promise<void>;
  release: () => void;
}

/** One row of the flush statement's answer. */
interface FlushRow {
  id: number;
  flushed: boolean;
  owned: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each renewal holds an answer STREAM_LEASE_SECONDS. */
export function createLiveAnswers({ db, config, log }: Pick<AppDeps, 'db' | 'config' | 'log'>): LiveAnswers {
  // Names the process in the rows it owns, so an operator can tell which one lost an answer.
  const lease: AnswerLease = { owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, seconds: config.STREAM_LEASE_SECONDS };
  const entries = new Map<number, Entry>();
  let flushing: Promise<void> | null = null;
  let cuttingOff = false;
  const streams = () => [...entries.values()].filter((entry) => entry.state !== 'handedOver');

  async function writeBatch(): Promise<void> {
    const batch = [...entries.values()].map((entry) => ({ entry, version: entry.version }));
    if (batch.length === 0) return;
    const payload = batch.map(({ entry }) => {
      const changed = entry.version !== entry.written || entry.state === 'handedOver';
      return {
        id: entry.id,
        text: changed ? storableText(entry.content.text) : null,
        reasoning: changed && entry.content.reasoning ? storableText(entry.content.reasoning) : null,
        citations: changed ? entry.content.citations : null,
        tool_calls: changed ? entry.content.toolCalls : null,
        expire: entry.state === 'handedOver',
      };
    });
    // Skips rows locked by a save in progress (the answer's own or a sweep's) rather than wait for them.
    const rows = rowsOf<FlushRow>(
      await db.execute(sql`
        with batch as (
          select * from jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) as b(id integer, text text, reasoning text, citations jsonb, tool_calls jsonb, expire boolean)
        ),
        owned as (
          select m.id from ${sessionMessages} m
          where m.id in (select id from batch) and m.streaming and m.stream_owner = ${lease.owner}
          for update skip locked
        ),
        flushed as (
          update ${sessionMessages} m set
            text = coalesce(b.text, m.text),
            reasoning = coalesce(b.reasoning, m.reasoning),
            citations = coalesce(b.citations, m.citations),
            tool_calls = coalesce(b.tool_calls, m.tool_calls),
            lease_expires_at = case when b.expire then now() else now() + make_interval(secs => ${lease.seconds}) end
          from batch b
          where m.id = b.id and m.id in (select id from owned)
          returning m.id
        )
        select b.id,
          exists (select 1 from flushed f where f.id = b.id) as flushed,
          exists (select 1 from ${sessionMessages} m where m.id = b.id and m.streaming and m.stream_owner = ${lease.owner}) as owned
        from batch b`),
    );
    const outcome = new Map(rows.map((row) => [Number(row.id), row]));
    for (const { entry, version } of batch) {
      const row = outcome.get(entry.id);
      if (!row || entries.get(entry.id) !== entry) continue;
      if (row.flushed) entry.written = version;
      if (entry.state === 'handedOver') {
        // Written with its lease expired, or already saved by a sweep: the sweep has it now.
        if (row.flushed || !row.owned) entries.delete(entry.id);
      } else if (!row.owned && entry.state === 'streaming') {
        // Saved by another process's sweep: this process could not renew the lease in time.
        entry.controller.abort(new AnswerCutOff('lost'));
      }
    }
  }

  function flush(): Promise<void> {
    flushing ??= writeBatch().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  function track(answerId: number): LiveAnswer {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const entry: Entry = {
      id: answerId,
      content: { text: '', reasoning: '', citations: [], toolCalls: [] },
      version: 0,
      written: 0,
      state: 'streaming',
      controller: new AbortController(),
      released,
      release,
    };
    entries.set(answerId, entry);
    if (cuttingOff) entry.controller.abort(new AnswerCutOff('shutdown'));
    return {
      signal: entry.controller.signal,
      get content() {
        return entry.content;
      },
      update(content) {
        Object.assign(entry.content, content);
        entry.version += 1;
      },
      finishing() {
        entry.state = 'finishing';
      },
      done() {
        entries.delete(answerId);
        entry.release();
      },
      handOver(content) {
        entry.content = content;
        entry.state = 'handedOver';
        entry.release();
      },
    };
  }

  async function drain(timeoutMs: number, saveTimeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (streams().length > 0 && Date.now() < deadline) {
      await Promise.race([Promise.all(streams().map((entry) => entry.released)), sleep(deadline - Date.now())]);
    }
    cuttingOff = true;
    const cut = streams();
    for (const entry of cut) entry.controller.abort(new AnswerCutOff('shutdown'));
    if (cut.length > 0) log.warn({ count: cut.length }, 'shutdown deadline: chat answers cut off');
    // Their saves retry for a few seconds at most; past that their leases expire and a sweep saves them.
    await Promise.race([Promise.all(cut.map((entry) => entry.released)), sleep(saveTimeoutMs)]);
    await flush().catch((error: unknown) => log.error({ err: error }, 'writing the last chat answers failed'));
  }

  return {
    lease,
    track,
    flush,
    drain,
    get streaming() {
      return streams().length;
    },
  };
}
