/**
 * Issue 19, point 7: SIGTERM with long answers streaming. The server refuses new work, lets the
 * streams run until SHUTDOWN_TIMEOUT_SECONDS, then cuts them off: each client gets an error frame,
 * each answer is saved as interrupted with the text its client received, its credits settled, and
 * the process exits without waiting for the answers to end. A real server process.
 */
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopBuiltServer } from '../fixtures/builtServer';
import { type FakeLlmUpstream, startFakeLlmUpstream } from '../fixtures/fakeLlmUpstream';
import {
  type ChatServer,
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
let server: ChatServer | undefined;

beforeEach(async () => {
  database = await faultDatabase();
  // 400 words at 50 ms each: 20 s an answer, far past the shutdown deadline.
  upstream = await startFakeLlmUpstream({ chunks: words(400), delayMs: 50 });
});
afterEach(async () => {
  if (server) await stopBuiltServer(server.child, 'SIGKILL');
  await upstream.close();
  await database.cleanup();
});

describe('SIGTERM with long answers streaming', () => {
  it('cuts them off at the deadline: an error frame, saved as interrupted with their text, credits settled, the process gone', async () => {
    // Leases far longer than the test: it is about the shutdown's own save, and on a busy machine a
    // stalled second let the process's sweep take its 1-second leases over (answer_not_saved, truly).
    server = await startChatServer(database, upstream, { SHUTDOWN_TIMEOUT_SECONDS: '2', JOB_SHUTDOWN_TIMEOUT_SECONDS: '1', STREAM_LEASE_SECONDS: '30' });
    const opened = await Promise.all([0, 1, 2].map((i) => openChatStream(server!, `Long question ${i}`)));
    const streams = opened.filter(isStream);
    expect(streams).toHaveLength(3);
    await eventually(async () => (streams.every((stream) => stream.text().length >= 24) ? true : undefined));

    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    // While the streams drain, new work is refused, so that a load balancer sends it elsewhere.
    const refused = await eventually(async () => {
      const late = await openChatStream(server!, 'Too late').catch(() => ({ status: 0 }));
      return isStream(late) ? undefined : late;
    });
    expect(refused.status).toBe(503);

    expect(await Promise.all(streams.map((stream) => stream.ended))).toEqual(['closed', 'closed', 'closed']);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    for (const stream of streams) {
      expect(stream.frames.filter((frame) => frame.type === 'error')).toEqual([expect.objectContaining({ code: 'server_shutting_down' })]);
      // Saved before the client was told: usage comes first, then the error, then the end.
      expect(stream.frames.slice(-3).map((frame) => frame.type)).toEqual(['usage', 'error', 'end']);
    }
    // The answers were cut off, not waited for: the upstream calls were aborted midway.
    for (const request of upstream.requests.filter((request) => request.path.endsWith('/chat/completions'))) {
      await request.settled;
      expect(request.aborted).toBe(true);
      expect(request.chunksSent).toBeLessThan(400);
    }

    await database.query(async (db) => {
      for (const stream of streams) {
        const stored = await storedAnswer(db, stream.meta.chatbot_message_id);
        expect(stored.answer).toMatchObject({ streaming: false, interrupted: 'interrupted', text: stream.text(), streamOwner: null });
        const usage = stream.frames.find((frame) => frame.type === 'usage');
        expect(stored.settlements).toHaveLength(1);
        expect(stored.charged).toBeCloseTo(usage?.type === 'usage' ? usage.credits : Number.NaN, 6);
        expect(stored.charged).toBeLessThanOrEqual(stored.reserved);
      }
    });
  }, 60_000);
});
