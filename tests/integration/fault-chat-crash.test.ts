/**
 * Issue 19, point 3: a server process killed with answers streaming. Its answers have an owner
 * and a lease; once the lease runs out, any running process (a restarted one, or another one on
 * the same PostgreSQL) saves them as interrupted with the text already written and settles their
 * credits for what was produced. Real server processes, the fake LLM upstream on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopBuiltServer } from '../fixtures/builtServer';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import {
  type ChatServer,
  type ChatStream,
  type FaultDatabase,
  eventually,
  faultDatabase,
  isStream,
  openChatStream,
  startChatServer,
  storedAnswer,
  words,
} from './helpers/chatFaults';

let database: FaultDatabase;
let upstream: FakeLlmUpstream;
const servers: ChatServer[] = [];
/**
 * The process that swept the first test's answers, still serving on PostgreSQL: the second test's
 * other process. A server start is most of these tests' CPU, and on a busy machine two more in the
 * second test took it past its time.
 */
let survivor: ChatServer | undefined;

// One database and upstream for both tests: each reads only its own answers.
beforeAll(async () => {
  database = await faultDatabase();
  // Answers of 400 words at 50 ms each: they are still streaming when the server is killed.
  upstream = await startFakeLlmUpstream({ chunks: words(400), delayMs: 50 });
});
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => stopBuiltServer(server.child, 'SIGKILL')));
  await upstream?.close();
  await database?.cleanup();
});

async function start(): Promise<ChatServer> {
  const server = await startChatServer(database, upstream);
  servers.push(server);
  return server;
}

/** Six answers streaming on `server`, each past 24 characters and written to the database that far. */
async function sixStreaming(server: ChatServer): Promise<ChatStream[]> {
  const opened = await Promise.all(Array.from({ length: 6 }, (_, i) => openChatStream(server, `Question ${i}`)));
  const streams = opened.filter(isStream);
  expect(streams).toHaveLength(6);
  for (const stream of streams) {
    await eventually(async () => {
      const history = await server.call(`/sessions/${stream.meta.session_hash_id}/history/`, { token: server.token });
      const answer = history.body.items.at(-1);
      return answer.streaming && answer.text.length >= 24 ? answer : undefined;
    });
  }
  return streams;
}

/** Every one of the answers saved as interrupted with a prefix of what its client saw, and charged at most its reservation. */
async function expectInterrupted(streams: ChatStream[], seen: string[]) {
  await database.query(async (db) => {
    for (const [index, stream] of streams.entries()) {
      const stored = await storedAnswer(db, stream.meta.chatbot_message_id);
      expect(stored.answer).toMatchObject({ streaming: false, interrupted: 'interrupted', leaseExpiresAt: null });
      expect(stored.answer.text.length).toBeGreaterThanOrEqual(24);
      expect(seen[index]!.startsWith(stored.answer.text)).toBe(true);
      // Settled once, for the estimated input and the saved text: more than nothing, no more than was held.
      expect(stored.settlements).toHaveLength(1);
      expect(stored.charged).toBeGreaterThan(0);
      expect(stored.charged).toBeLessThanOrEqual(stored.reserved);
      expect(stored.usage).toEqual([expect.objectContaining({ credits: expect.closeTo(stored.charged!, 6) })]);
    }
  });
}

describe('a server killed with six answers streaming', () => {
  it('has them saved as interrupted, with their text and their credits settled, by the process started after it', async () => {
    const first = await start();
    const streams = await sixStreaming(first);
    await stopBuiltServer(first.child, 'SIGKILL');
    expect(await Promise.all(streams.map((stream) => stream.ended))).toEqual(Array(6).fill('cut'));
    const seen = streams.map((stream) => stream.text());

    const restarted = await start();
    // The history shows each one as interrupted, with its text, no longer as being written.
    for (const stream of streams) {
      const answer = await eventually(async () => {
        const history = await restarted.call(`/sessions/${stream.meta.session_hash_id}/history/`, { token: restarted.token });
        const last = history.body.items.at(-1);
        return last.streaming ? undefined : last;
      });
      expect(answer).toMatchObject({ id: stream.meta.chatbot_message_id, interrupted: 'interrupted', streaming: false });
    }
    // PGlite is opened by one process at a time.
    if (database.kind === 'pglite') await stopBuiltServer(restarted.child, 'SIGTERM');
    else survivor = restarted;
    await expectInterrupted(streams, seen);
  }, 60_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'has them saved by another server process of the same PostgreSQL, which leaves live answers alone',
    async () => {
      const [streaming, other] = await Promise.all([start(), survivor ?? start()]);
      const streams = await sixStreaming(streaming);
      // Several leases and sweeps of the other process later, the live answers are still the first one's.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await database.query(async (db) => {
        for (const stream of streams)
          expect((await storedAnswer(db, stream.meta.chatbot_message_id)).answer).toMatchObject({ streaming: true, interrupted: null });
      });

      await stopBuiltServer(streaming.child, 'SIGKILL');
      const seen = streams.map((stream) => stream.text());
      await eventually(() =>
        database.query(async (db) => {
          const stored = await Promise.all(streams.map((stream) => storedAnswer(db, stream.meta.chatbot_message_id)));
          return stored.every((answer) => !answer.answer.streaming) ? true : undefined;
        }),
      );
      await expectInterrupted(streams, seen);
      // The other process serves on, never restarted.
      expect(other.child.exitCode).toBeNull();
    },
    60_000,
  );
});
