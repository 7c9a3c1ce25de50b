import type { FastifyReply, FastifyRequest } from 'fastify';
import { chat } from '../../../shared/api/chat';
import { CHAT_META_HEADER } from '../../../shared/domain/chat';
import { checkSend, openTurn, streamAnswer } from './service';
import type { ChatDeps, ChatTurn } from './turn';
import { priceImageSend } from './images';
import { RESPONSE_WRITTEN, registerEndpoint } from '../../routes/endpointRoute';
import { abortOnDisconnect, openEventStream } from '../../routes/eventStream';
import { domainRoutes } from '../plugin';

/** Header values must be Latin-1: escape everything else inside the JSON. */
const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Writes an opened turn as the chat stream (headers with `x-chat-meta`, then every frame). */
export async function writeChatStream(
  deps: Omit<ChatDeps, 'log'>,
  turn: ChatTurn,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<typeof RESPONSE_WRITTEN> {
  const response = reply.raw;
  const upstream = abortOnDisconnect(response);
  const send = openEventStream(reply, { [CHAT_META_HEADER]: asciiJson(turn.meta) });
  try {
    // Read to the end even once the client is gone: the last step saves the answer.
    for await (const frame of streamAnswer({ ...deps, log: request.log }, turn, upstream.signal)) send(JSON.stringify(frame));
  } finally {
    upstream.release();
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
