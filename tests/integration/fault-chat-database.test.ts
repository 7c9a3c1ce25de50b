/**
 * Issue 19, point 4: the database drops the server's connections (pg_terminate_backend) while 50
 * members send. An answer's final save is retried on a new connection; a stream ends with `end`
 * only when its answer is saved with the credits its `usage` frame reports, otherwise with an error
 * frame, and whatever was left streaming is swept. A real server process on PostgreSQL.
 */
import postgres from 'postgres';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { creditLedger, sessionMessages } from '../../src/server/db/schema';
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

const SENDS = 50;

let database: FaultDatabase;
let upstream: FakeLlmUpstream;
let server: ChatServer | undefined;

beforeEach(async () => {
  database = await faultDatabase();
  upstream = await startFakeLlmUpstream({ chunks: words(30), delayMs: 30 });
});
afterEach(async () => {
  if (server) await stopBuiltServer(server.child, 'SIGKILL');
  await upstream.close();
  await database.cleanup();
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the database dropping the server’s connections during 50 sends', () => {
  it('never reports an answer saved that was not, and leaves nothing streaming or held', async () => {
    server = await startChatServer(database, upstream);
    const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const terminated: number[] = [];
    const dropConnections = async () => {
      const rows = await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database.name!} and pid <> pg_backend_pid()`;
      terminated.push(rows.length);
    };

    let sending = true;
    // Sends spread over about two seconds, so that saves, flushes and turn starts all meet a drop.
    const sends = Array.from({ length: SENDS }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 40));
      const opened = await openChatStream(server!, `Question ${i}`);
      if (isStream(opened)) await opened.ended;
      return opened;
    });
    const dropping = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      while (sending) {
        await dropConnections();
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    })();
    const outcomes = await Promise.all(sends);
    sending = false;
    await dropping;
    await admin.end();
    expect(terminated.length).toBeGreaterThanOrEqual(3);

    const streams = outcomes.filter(isStream);
    // A send refused before streaming (its turn could not start) is a plain error status.
    for (const refused of outcomes) if (!isStream(refused)) expect(refused.status).toBeGreaterThanOrEqual(500);
    const ended: ChatStream[] = [];
    for (const stream of streams) {
      expect(await stream.ended).toBe('closed');
      const last = stream.frames.at(-1);
      if (last?.type === 'end') ended.push(stream);
      else expect(last, `answer ${stream.meta.chatbot_message_id} ended without end or error`).toMatchObject({ type: 'error' });
    }
    expect(ended.length).toBeGreaterThan(0);

    await database.query(async (db) => {
      for (const stream of ended) {
        const stored = await storedAnswer(db, stream.meta.chatbot_message_id);
        const usage = stream.frames.find((frame) => frame.type === 'usage');
        expect(stored.answer, `answer ${stream.meta.chatbot_message_id}`).toMatchObject({ streaming: false, text: stream.text() });
        expect(stored.settlements).toHaveLength(1);
        expect(stored.charged).toBeCloseTo(usage?.type === 'usage' ? usage.credits : Number.NaN, 6);
      }
      // Once the sweep ran, nothing is left streaming and every reservation is settled, once.
      await eventually(async () => ((await db.select().from(sessionMessages).where(eq(sessionMessages.streaming, true))).length === 0 ? true : undefined));
      const reservations = await db.select().from(creditLedger).where(eq(creditLedger.kind, 'reservation'));
      for (const reservation of reservations) {
        const settlements = await db
          .select()
          .from(creditLedger)
          .where(and(eq(creditLedger.kind, 'settlement'), eq(creditLedger.reservationId, reservation.id)));
        expect(settlements, `reservation ${reservation.id}`).toHaveLength(1);
      }
    });
  }, 60_000);
});
