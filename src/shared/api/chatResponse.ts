import { ApiError, apiErrorFromResponse } from './apiError';
import { chatMetaSchema, type ChatMeta } from './chat';
import { parseJsonOrNull } from './chatStream';
import { CHAT_META_HEADER } from '../domain/chat';

/** The client's own code for a chat answer whose `x-chat-meta` header is missing or malformed. */
export const BAD_CHAT_META_CODE = 'bad_chat_meta';

export interface OpenedChat {
  meta: ChatMeta;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * Opens the response of the chat endpoint the same way on the web (renderer) and on desktop (main):
 * a non-2xx answer becomes the ApiError of its error body; an answer without valid metadata is
 * cancelled, so the server stops generating for nobody, and fails as a 502 `bad_chat_meta`.
 */
export async function openChatResponse(response: Response): Promise<OpenedChat> {
  if (!response.ok) throw await apiErrorFromResponse(response);
  const meta = chatMetaSchema.safeParse(parseJsonOrNull(response.headers.get(CHAT_META_HEADER)));
  if (!meta.success) {
    await response.body?.cancel().catch(() => undefined);
    throw new ApiError(502, { code: BAD_CHAT_META_CODE, message: 'The chat answer carried no valid metadata header' });
  }
  return { meta: meta.data, body: response.body };
}
