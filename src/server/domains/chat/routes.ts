import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ChatFrame, chat } from '../../../shared/api/chat';
import { CHAT_META_HEADER } from '../../../shared/domain/chat';
import { checkSend, openTurn, streamAnswer } from './service';
import type { ChatDeps, ChatTurn } from './turn';
import { priceImageSend } from './images';
import { RESPONSE_WRITTEN, registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** Header values must be Latin-1: escape everything else inside the JSON. */
const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Writes an opened turn as the chat stream (headers with `x-chat-meta`, then every frame). */
export async function writeChatStream(deps: Omit<ChatDeps, 'log'>, turn: ChatTurn, request: FastifyRequest, reply: FastifyReply): Promise<typeof RESPONSE_WRITTEN> {
  const response = reply.raw;
  // A closed connection (stop, or a new send) aborts the upstream call.
  const upstream = new AbortController();
  const abortOnDisconnect = () => {
    if (!response.writableFinished) upstream.abort();
  };
  response.on('close', abortOnDisconnect);
  const write = (frame: ChatFrame) => {
    if (!response.destroyed && !response.writableEnded) response.write(`data: ${JSON.stringify(frame)}\n\n`);
  };

  reply.hijack();
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    [CHAT_META_HEADER]: asciiJson(turn.meta),
  });
  response.flushHeaders();

  try {
    // Read to the end even once the client is gone: the last step saves the answer.
    for await (const frame of streamAnswer({ ...deps, log: request.log }, turn, upstream.signal)) write(frame);
  } finally {
    response.off('close', abortOnDisconnect);
  }
  if (!response.destroyed) response.end();
  return RESPONSE_WRITTEN;
}

export const chatRoutes = domainRoutes('chat', (app, deps) => {
  registerEndpoint(app, chat, async ({ params, body, tenant, requireMember, request, reply }) => {
    // Errors known before streaming are thrown here and answered as plain JSON statuses.
    const turn = await openTurn(deps.db, priceImageSend(await checkSend(deps, tenant, requireMember(), params.id, body), deps.config), deps.answers.lease);
    return writeChatStream(deps, turn, request, reply);
  });
});
