import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/api';
import { createChatProxy, type StreamSubscriber } from './chatProxy';

const subscriber = () => ({ id: 1, send: vi.fn<StreamSubscriber['send']>() });

function proxyAnswering(response: Response) {
  return createChatProxy({ authorizedFetch: vi.fn(async () => response) }, () => 'http://127.0.0.1:1/api/v1');
}

describe('desktop chat proxy: opening the answer', () => {
  it.each([
    ['malformed', '{"session_hash_id":'],
    ['missing', null],
  ])('a %s chat meta header fails as 502 bad_chat_meta, like the web, and cancels the answer', async (_case, header) => {
    const cancelled = vi.fn();
    const headers = new Headers({ 'content-type': 'text/event-stream' });
    if (header !== null) headers.set('x-chat-meta', header);
    const page = subscriber();
    const proxy = proxyAnswering(new Response(new ReadableStream<Uint8Array>({ cancel: cancelled }), { headers }));

    const failure = proxy.start(page, { requestId: 'r1', chatbotId: 3, body: { text: 'hi' } });

    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 502, code: 'bad_chat_meta' });
    expect(cancelled).toHaveBeenCalledOnce();
    expect(page.send).not.toHaveBeenCalled();
    // The request is over: the same id can start again instead of being refused as still running.
    await expect(proxy.start(page, { requestId: 'r1', chatbotId: 3, body: { text: 'hi' } })).rejects.toMatchObject({ status: 502 });
  });

  it('an error before the stream keeps the status and body of the server', async () => {
    const proxy = proxyAnswering(Response.json({ code: 'credits_depleted', message: 'no credits' }, { status: 402 }));
    await expect(proxy.start(subscriber(), { requestId: 'r1', chatbotId: 3, body: { text: 'hi' } })).rejects.toMatchObject({
      status: 402,
      code: 'credits_depleted',
    });
  });
});

describe('desktop chat proxy: the frames', () => {
  it("forwards a tool call's frames to the page like the web reads them (issue 24)", async () => {
    const call = { id: 'c1', tool_id: 3, name: 'current_time', server_name: 'Demo tools', arguments: {}, text_offset: 0 };
    const frames = [
      { type: 'tool', call: { ...call, status: 'running', result: '', duration_ms: null } },
      { type: 'tool', call: { ...call, status: 'ok', result: '12:00', duration_ms: 5 } },
      { type: 'end', finish_reason: 'stop' },
    ];
    const meta = { session_hash_id: 'abc', session_created: true, member_message_id: 1, chatbot_message_id: 2, model: 'demo' };
    const page = subscriber();
    const proxy = proxyAnswering(
      new Response(frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(''), {
        headers: { 'content-type': 'text/event-stream', 'x-chat-meta': JSON.stringify(meta) },
      }),
    );
    await proxy.start(page, { requestId: 'r1', chatbotId: 3, body: { text: 'time?' } });
    await vi.waitFor(() => expect(page.send).toHaveBeenLastCalledWith('chat:stream', { requestId: 'r1', event: { type: 'done' } }));
    const sent = page.send.mock.calls.map(([, payload]) => payload.event);
    expect(sent).toEqual([...frames.map((frame) => ({ type: 'frame', frame })), { type: 'done' }]);
  });
});
