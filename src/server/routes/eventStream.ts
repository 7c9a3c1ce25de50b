import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client closes the connection before the response is finished
 * (a stop, or a new send): the upstream call it is given ends. `release()` stops listening.
 */
export function abortOnDisconnect(response: ServerResponse): { signal: AbortSignal; release: () => void } {
  const upstream = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) upstream.abort();
  };
  response.on('close', onClose);
  return { signal: upstream.signal, release: () => response.off('close', onClose) };
}

/**
 * Takes the reply over as a stream of Server-Sent Events: status 200 with the stream's headers (and
 * `headers`), sent at once. The returned `send` writes one `data:` event while the connection is open.
 */
export function openEventStream(reply: FastifyReply, headers: Record<string, string> = {}): (data: string) => void {
  const response = reply.raw;
  reply.hijack();
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    ...headers,
  });
  response.flushHeaders();
  return (data) => {
    if (!response.destroyed && !response.writableEnded) response.write(`data: ${data}\n\n`);
  };
}
