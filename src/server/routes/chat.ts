import type { FastifyInstance } from 'fastify';
import { type ChatFrame, chat } from '../../shared/api/chat';
import { CHAT_META_HEADER } from '../../shared/domain/chat';
import type { Database } from '../db/client';
import type { LlmRegistry } from '../llm/registry';
import { checkSend, openTurn, streamAnswer } from '../services/chat';
import { type ImageDeps, priceImageSend } from '../services/images';
import { RESPONSE_WRITTEN, registerEndpoint } from './endpointRoute';

/** Header values must be Latin-1: escape everything else inside the JSON. */
const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function registerChatRoutes(app: FastifyInstance, deps: { db: Database; llm: LlmRegistry; images: ImageDeps }): void {
  registerEndpoint(app, chat, async ({ params, body, tenant, requireMember, request, reply }) => {
    // Errors known before streaming are thrown here and answered as plain JSON statuses.
    const turn = await openTurn(deps.db, priceImageSend(await checkSend(deps.db, tenant, requireMember(), params.id, body), deps.images));

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
  });
}
