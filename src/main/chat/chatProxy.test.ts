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
