import { chatApi } from '../../../../shared/api';
import { errorMessageKey } from '../../api/errorMessages';
import type { MessageKey } from '../../i18n/keys';

/**
 * A full i18n key of a chat-stream message of spec §8: under `errors.` in chat.json, sources.json
 * (web search) or modes.json (thinking, images, task modes), or a depletion message in credits.json.
 */
export type ChatErrorKey = Extract<MessageKey, `${'chat' | 'sources' | 'modes'}:errors.${string}` | `credits:depleted.${string}`>;

/** A send rejected before the stream started: the chat endpoint's rows of the error catalogue. */
export function sendErrorKey(error: unknown): ChatErrorKey {
  // The chat endpoint's rows end with a default row, so every failure gets a chat key.
  return errorMessageKey(error, chatApi.chat) as ChatErrorKey;
}

const frameCodes: Partial<Record<string, ChatErrorKey>> = {
  credits_depleted: 'chat:errors.credits_depleted',
  model_not_allowed: 'chat:errors.model_not_allowed',
  input_too_long: 'chat:errors.input_too_long',
  restricted_term: 'chat:errors.restricted_term',
  image_generation_failed: 'modes:errors.image_generation',
  [chatApi.ANSWER_NOT_SAVED_FRAME.code]: 'chat:errors.answer_not_saved',
  [chatApi.SERVER_SHUTTING_DOWN_FRAME.code]: 'chat:errors.server_shutting_down',
};

/**
 * Errors after which the server's copy of the answer may differ from what arrived: its server
 * stopped streaming it (saved as interrupted, or left to the sweep), or the connection dropped.
 */
const CUT_OFF_ERRORS: readonly ChatErrorKey[] = ['chat:errors.answer_not_saved', 'chat:errors.server_shutting_down', 'chat:errors.stream_interrupted'];

export const isCutOff = (error: ChatErrorKey | null): boolean => error !== null && CUT_OFF_ERRORS.includes(error);

/** An `error` frame that arrived in the middle of an answer. */
export function frameErrorKey(code: string): ChatErrorKey {
  return frameCodes[code] ?? 'chat:errors.stream_failed';
}
