/**
 * The pieces of the chat fault tests (tests/integration/fault-chat-*.test.ts): a database the
 * server processes and the test share, server processes (the build) on free ports answering with
 * the fake LLM upstream, and chat streams read as they arrive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { type Database, type DatabaseHandle, openPglite } from '../../../src/server/db/client';
import { creditLedger, sessionMessages, usageRecords } from '../../../src/server/db/schema';
import { type ChatFrame, type ChatMeta, chatFrameSchema, chatMetaSchema } from '../../../src/shared/api/chat';
import { API_PREFIX } from '../../../src/shared/domain/http';
import { type BuiltServer, startServerProcess } from '../../fixtures/builtServer';
import type { FakeLlmUpstream } from '../../fixtures/fakeLlmUpstream';
import { migratedPgliteDirectory } from '../../fixtures/pgliteDirectory';
import { serverBundleArgs } from '../../fixtures/serverBundle';
import { DEMO_MEMBER, freshPostgresDatabase } from '../../fixtures/testServer';
import { apiClient } from './client';

/** A database shared by the test and its server processes; PGlite opens for the test only while no process has it. */
export interface FaultDatabase {
  kind: 'pglite' | 'postgres';
  /** DATA_DIR or DATABASE_URL for a server process. */
  env: Record<string, string>;
  /** The database name on PostgreSQL (its server processes' connections are found by it). */
  name?: string;
  query<T>(read: (db: Database) => Promise<T>): Promise<T>;
  cleanup(): Promise<void>;
}

/** PostgreSQL when TEST_DATABASE_URL is set, else a PGlite directory: as the rest of the integration suite. */
export async function faultDatabase(): Promise<FaultDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const fresh = await freshPostgresDatabase(adminUrl);
    return {
      kind: 'postgres',
      env: { DATABASE_URL: fresh.url },
      name: new URL(fresh.url).pathname.slice(1),
      query: (read) => read(fresh.handle.db),
      async cleanup() {
        await fresh.handle.close();
        await fresh.drop();
      },
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'fault-pglite-'));
  // Migrated already, as the PostgreSQL database is: a server process would spend seconds on it.
  await migratedPgliteDirectory(dataDir);
  return {
    kind: 'pglite',
    env: { DATABASE_URL: '', DATA_DIR: dataDir },
    async query(read) {
      const handle: DatabaseHandle = await openPglite(dataDir);
      try {
        return await read(handle.db);
      } finally {
        await handle.close();
      }
    },
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Answers are written every 0.2 s under leases of 1 s, swept every 0.5 s: a lost answer is found within seconds. */
export const FAST_LEASES = { STREAM_FLUSH_SECONDS: '0.2', STREAM_LEASE_SECONDS: '1', STREAM_SWEEP_SECONDS: '0.5' };

export interface ChatServer extends BuiltServer {
  token: string;
  /** The paid General Assistant of the demo tenant. */
  chatbotId: number;
  call: ReturnType<typeof apiClient>['call'];
}

/** A server process (the build) on a free port, its LLM the fake upstream, signed in as the demo member. */
export async function startChatServer(database: FaultDatabase, upstream: FakeLlmUpstream, env: Record<string, string> = {}): Promise<ChatServer> {
  const scratch = mkdtempSync(join(tmpdir(), 'fault-server-'));
  const server = await startServerProcess(await serverBundleArgs(), {
    ...process.env,
    ...database.env,
    PORT: '0',
    HOST: '127.0.0.1',
    FILES_DIR: join(scratch, 'files'),
    SMS_OUTBOX_DIR: join(scratch, 'sms'),
    WEB_DIST_DIR: join(scratch, 'web'),
    LLM_BASE_URL: upstream.baseUrl,
    LLM_API_KEY: 'fake-key',
    LLM_MODEL: 'fake-model',
    LOG_LEVEL: 'warn',
    ...FAST_LEASES,
    ...env,
  });
  server.child.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  const { call, signIn } = apiClient({ apiBase: `${server.origin}${API_PREFIX}` });
  const { access_token: token } = await signIn(DEMO_MEMBER);
  const chatbots = await call('/chatbots/?include_default=true', { token });
  const chatbotId = chatbots.body.items.find((bot: { en_name: string }) => bot.en_name === 'General Assistant').id as number;
  return { ...server, token, chatbotId, call };
}

/** An upstream answer of `count` words, one per chunk: `w0 w1 w2 …`. */
export const words = (count: number) => Array.from({ length: count }, (_, i) => `w${i} `);

export interface ChatStream {
  meta: ChatMeta;
  frames: ChatFrame[];
  /** The answer text received so far. */
  text(): string;
  /** How the body ended: read to its end, or broken off (the server died). */
  ended: Promise<'closed' | 'cut'>;
}

/** Sends a message and reads its stream as it arrives; a refusal before streaming gives the status instead. */
export async function openChatStream(server: ChatServer, text: string, chatbotId = server.chatbotId): Promise<ChatStream | { status: number }> {
  const response = await fetch(`${server.origin}${API_PREFIX}/chatbots/${chatbotId}/chat/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-token': server.token },
    body: JSON.stringify({ text }),
  });
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel();
    return { status: response.status };
  }
  const meta = chatMetaSchema.parse(JSON.parse(response.headers.get('x-chat-meta')!));
  const frames: ChatFrame[] = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'closed' as const;
        buffered += value;
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop() ?? '';
        for (const block of blocks) if (block.startsWith('data: ')) frames.push(chatFrameSchema.parse(JSON.parse(block.slice('data: '.length))));
      }
    } catch {
      return 'cut' as const;
    }
  })();
  const streamText = () => frames.flatMap((frame) => (frame.type === 'text' ? [frame.delta] : [])).join('');
  return { meta, frames, text: streamText, ended };
}

export const isStream = (opened: ChatStream | { status: number }): opened is ChatStream => 'meta' in opened;

/** Polls until `probe` gives a value; the test's own timeout bounds it (no timed assertion). */
export async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the database holds of an answer: its row, its usage rows, its reservation and settlements. */
export async function storedAnswer(db: Database, answerId: number) {
  const [answer] = await db.select().from(sessionMessages).where(eq(sessionMessages.id, answerId));
  const usage = await db.select().from(usageRecords).where(eq(usageRecords.messageId, answerId));
  const [reservation] = await db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.kind, 'reservation'), eq(creditLedger.messageId, answerId)));
  const settlements = reservation ? await db.select().from(creditLedger).where(eq(creditLedger.reservationId, reservation.id)) : [];
  /** What the member was charged: the reservation less what its settlement gave back. */
  const charged = reservation && settlements.length === 1 ? -reservation.amount - settlements[0]!.amount : null;
  return { answer: answer!, usage, reserved: reservation ? -reservation.amount : 0, settlements, charged };
}
