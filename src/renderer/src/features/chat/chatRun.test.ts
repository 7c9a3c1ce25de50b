import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ChatFrame, type ChatMeta } from '../../../../shared/api';
import type { ChatStreamRequest } from '../../platform/types';
import { ChatRun, type ChatRunSnapshot } from './chatRun';

const meta: ChatMeta = { session_hash_id: 'abc123', session_created: true, member_message_id: 10, chatbot_message_id: 11, model: 'demo' };

/** A controllable stand-in for platform.streamChat. */
function fakeStream() {
  let request!: ChatStreamRequest;
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const streamChat = vi.fn((r: ChatStreamRequest) => {
    request = r;
    return new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
      r.signal.addEventListener('abort', () => res());
    });
  });
  return {
    streamChat,
    meta: (patch: Partial<ChatMeta> = {}) => request.onMeta({ ...meta, ...patch }),
    frame: (frame: ChatFrame) => request.onFrame(frame),
    close: () => resolve(),
    fail: (error: unknown) => reject(error),
    signal: () => request.signal,
  };
}

function startRun(stream: ReturnType<typeof fakeStream>) {
  const settled: ChatRunSnapshot[] = [];
  const onMeta = vi.fn();
  const run = new ChatRun({ chatbotId: 1, body: { text: 'hello' }, streamChat: stream.streamChat, onMeta, onSettled: (s) => settled.push(s) });
  const done = run.start();
  return { run, settled, onMeta, done };
}

describe('ChatRun', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports the meta, batches text and settles as done after the end frame', async () => {
    const stream = fakeStream();
    const { run, settled, onMeta, done } = startRun(stream);
    expect(run.getSnapshot().status).toBe('sending');
    stream.meta();
    expect(onMeta).toHaveBeenCalledWith(meta);
    expect(run.sessionHashId).toBe('abc123');
    expect(run.getSnapshot().status).toBe('streaming');

    stream.frame({ type: 'text', delta: 'Hel' });
    expect(run.getSnapshot().text).toBe('');
    // The first text shows on the next frame; what follows within the tick waits for its end.
    vi.advanceTimersByTime(16);
    expect(run.getSnapshot().text).toBe('Hel');
    stream.frame({ type: 'text', delta: 'lo' });

    stream.frame({ type: 'usage', input_tokens: 5, output_tokens: 2, credits: 1 });
    stream.frame({ type: 'end', finish_reason: 'stop' });
    expect(run.getSnapshot().status).toBe('streaming');
    vi.advanceTimersByTime(50 + 16);
    expect(run.getSnapshot()).toMatchObject({ text: 'Hello', status: 'done', error: null, usage: { input_tokens: 5 } });
    stream.close();
    await done;
    expect(settled).toHaveLength(1);
  });

  it('stop aborts the request and keeps everything received, even what was not yet shown', async () => {
    const stream = fakeStream();
    const { run, settled, done } = startRun(stream);
    stream.meta();
    for (const delta of ['a', 'b', 'c']) stream.frame({ type: 'text', delta });
    run.stop();
    expect(stream.signal().aborted).toBe(true);
    expect(run.getSnapshot()).toMatchObject({ status: 'stopped', text: 'abc' });
    await done;
    expect(settled).toHaveLength(1);
    // Frames still in flight after stop are ignored.
    stream.frame({ type: 'text', delta: 'late' });
    expect(run.getSnapshot().text).toBe('abc');
  });

  it('an error frame mid-stream fails the answer with a translated key and keeps the partial text', () => {
    const stream = fakeStream();
    const { run } = startRun(stream);
    stream.meta();
    stream.frame({ type: 'text', delta: 'partial' });
    stream.frame({ type: 'error', code: 'upstream_failed', message: 'x' });
    expect(run.getSnapshot()).toMatchObject({ status: 'failed', error: 'chat:errors.stream_failed', text: 'partial', rejected: false });
  });

  it('a failed image generation has its own message (spec §8 image generation 500)', () => {
    const stream = fakeStream();
    const { run } = startRun(stream);
    stream.meta();
    stream.frame({ type: 'error', code: 'image_generation_failed', message: 'x' });
    expect(run.getSnapshot()).toMatchObject({ status: 'failed', error: 'modes:errors.image_generation' });
  });

  it('times the thinking from its first frame to the first answer text', () => {
    vi.useFakeTimers();
    const stream = fakeStream();
    const { run } = startRun(stream);
    stream.meta();
    stream.frame({ type: 'thinking', delta: 'Hmm' });
    vi.advanceTimersByTime(2500);
    stream.frame({ type: 'thinking', delta: ', yes' });
    expect(run.getSnapshot()).toMatchObject({ thinking: 'Hmm, yes', thinkingMs: null });
    vi.advanceTimersByTime(500);
    stream.frame({ type: 'text', delta: 'Answer' });
    expect(run.getSnapshot().thinkingMs).toBeGreaterThanOrEqual(2900);
    vi.useRealTimers();
  });

  it.each([
    [402, 'credits_depleted', 'chat:errors.credits_depleted'],
    [403, 'model_not_allowed', 'chat:errors.model_not_allowed'],
    [413, 'input_too_long', 'chat:errors.input_too_long'],
    [422, 'message_empty', 'chat:errors.message_empty'],
    [422, 'restricted_term', 'chat:errors.restricted_term'],
    [422, 'validation_error', 'chat:errors.validation_failed'],
    [428, 'pii_blocked', 'chat:errors.pii_blocked'],
    [428, 'restricted_term', 'chat:errors.restricted_term'],
    [400, 'validation_error', 'chat:errors.no_text'],
    [500, 'internal_error', 'chat:errors.send_failed'],
  ])('a %i before the stream is a rejected send with key %s', async (status, code, key) => {
    const stream = fakeStream();
    const { run, done } = startRun(stream);
    stream.fail(new ApiError(status, { code, message: 'm' }));
    await done;
    expect(run.getSnapshot()).toMatchObject({ status: 'failed', error: key, rejected: true });
  });

  it('masks its copy of the message like the server did when the meta names masked kinds', () => {
    const stream = fakeStream();
    const run = new ChatRun({ chatbotId: 1, body: { text: 'mail kim@example.com' }, streamChat: stream.streamChat });
    void run.start();
    stream.meta({ masked_pii: ['email'] });
    expect(run.getSnapshot().memberText).toBe('mail ***@example.com');
  });

  it('a stream that closes without an end frame counts as interrupted', async () => {
    const stream = fakeStream();
    const { run, done } = startRun(stream);
    stream.meta();
    stream.frame({ type: 'text', delta: 'half' });
    stream.close();
    await done;
    expect(run.getSnapshot()).toMatchObject({ status: 'failed', error: 'chat:errors.stream_interrupted', text: 'half' });
  });

  it('collects citations and images as they arrive', () => {
    const stream = fakeStream();
    const { run } = startRun(stream);
    stream.meta();
    stream.frame({ type: 'citation', citation: { kind: 'web', url: 'https://example.org/a', title: 'A' } });
    stream.frame({ type: 'image', url: '/api/v1/files/1/' });
    expect(run.getSnapshot()).toMatchObject({ citations: [{ kind: 'web', url: 'https://example.org/a', title: 'A' }], images: ['/api/v1/files/1/'] });
  });

  it('keeps tool calls in the order they started, a final frame replacing its running one; one still running stops with the answer', () => {
    const stream = fakeStream();
    const { run, settled } = startRun(stream);
    stream.meta();
    const call = { tool_id: 3, server_name: 'Demo tools', arguments: {}, result: '', duration_ms: null, text_offset: 0 } as const;
    stream.frame({ type: 'tool', call: { ...call, id: 'a', name: 'current_time', status: 'running' } });
    stream.frame({ type: 'tool', call: { ...call, id: 'b', name: 'convert_units', status: 'running' } });
    stream.frame({ type: 'tool', call: { ...call, id: 'a', name: 'current_time', status: 'ok', result: '10:00', duration_ms: 12 } });
    expect(run.getSnapshot().toolCalls.map(({ id, status, result }) => ({ id, status, result }))).toEqual([
      { id: 'a', status: 'ok', result: '10:00' },
      { id: 'b', status: 'running', result: '' },
    ]);
    run.stop();
    expect(settled[0]!.toolCalls.map((toolCall) => toolCall.status)).toEqual(['ok', 'stopped']);
  });

  it('notifies subscribers on every change', () => {
    const stream = fakeStream();
    const { run } = startRun(stream);
    const listener = vi.fn();
    run.subscribe(listener);
    stream.meta();
    stream.frame({ type: 'thinking', delta: 'hmm' });
    expect(listener).toHaveBeenCalledTimes(2);
    expect(run.getSnapshot().thinking).toBe('hmm');
  });
});
