import { ApiError, buildPath, chatApi, isAbortError, openChatResponse, readChatFrames, type ChatBody, type ChatMeta, type OpenedChat } from '../../shared/api';
import type { ChatStreamEvent } from '../../shared/ipc/contract';
import type { AuthSession } from '../auth/authSession';
import { createRunningRequests, type RunningRequest } from '../ipc/runningRequests';

/** The page that asked for a stream: frames go back to it only. */
export interface StreamSubscriber {
  id: number;
  send(channel: 'chat:stream', payload: ChatStreamEvent): void;
}

export interface ChatStartRequest {
  requestId: string;
  chatbotId: number;
  body: ChatBody;
}

/**
 * Main's half of the chat stream (DESIGN §6): performs the POST with the session's credentials,
 * answers `chat:start` with the metadata header (or the ApiError known before streaming), then
 * parses the event stream and forwards each valid frame under its request id. Cancelling aborts
 * the HTTP request, which the server turns into an aborted upstream LLM call.
 */
export function createChatProxy(session: Pick<AuthSession, 'authorizedFetch'>, apiBase: () => string) {
  const running = createRunningRequests();

  async function pump(body: ReadableStream<Uint8Array> | null, subscriber: StreamSubscriber, requestId: string, request: RunningRequest): Promise<void> {
    const emit = (event: ChatStreamEvent['event']) => subscriber.send('chat:stream', { requestId, event });
    try {
      if (body) await readChatFrames(body, (frame) => emit({ type: 'frame', frame }));
      emit({ type: 'done' });
    } catch (error) {
      if (isAbortError(error) || request.signal.aborted) emit({ type: 'done' });
      else emit({ type: 'failed', status: 0, body: null });
    } finally {
      request.end();
    }
  }

  return {
    async start(subscriber: StreamSubscriber, { requestId, chatbotId, body }: ChatStartRequest): Promise<ChatMeta> {
      const request = running.begin(subscriber.id, requestId);
      let response: Response;
      try {
        response = await session.authorizedFetch(`${apiBase()}${buildPath(chatApi.chat.path, { id: chatbotId })}`, {
          method: chatApi.chat.method,
          headers: new Headers({ 'content-type': 'application/json', accept: 'text/event-stream' }),
          body: JSON.stringify(body),
          signal: request.signal,
        });
      } catch (error) {
        request.end();
        throw new ApiError(0, null, isAbortError(error) ? 'Cancelled' : error instanceof Error ? error.message : String(error));
      }
      let chat: OpenedChat;
      try {
        chat = await openChatResponse(response);
      } catch (error) {
        request.end();
        throw error;
      }
      void pump(chat.body, subscriber, requestId, request);
      return chat.meta;
    },

    cancel: running.cancel,
    /** A window closed or reloaded: stop everything it was receiving. */
    cancelAllOf: running.cancelAllOf,
  };
}

export type ChatProxy = ReturnType<typeof createChatProxy>;
