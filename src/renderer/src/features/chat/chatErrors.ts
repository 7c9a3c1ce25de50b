import { isApiError } from '../../../../shared/api';

/** Keys under `errors.` in chat.json: the chat-stream messages of spec §8. */
export type ChatErrorKey =
  | 'credits_depleted'
  | 'model_not_allowed'
  | 'input_too_long'
  | 'message_empty'
  | 'validation_failed'
  | 'restricted_term'
  | 'no_text'
  | 'network'
  | 'send_failed'
  | 'stream_failed'
  | 'stream_interrupted';

/**
 * A send rejected before the stream started (plain HTTP status with a JSON body). The server answers
 * a blank message and a restricted term with 422 and its code, a malformed body with 400; 428 is
 * personal data found in the message (blocked like a restricted term).
 */
export function sendErrorKey(error: unknown): ChatErrorKey {
  if (!isApiError(error)) return 'send_failed';
  switch (error.status) {
    case 0:
      return 'network';
    case 400:
      return 'no_text';
    case 402:
      return 'credits_depleted';
    case 403:
      return 'model_not_allowed';
    case 413:
      return 'input_too_long';
    case 422:
      if (error.code === 'message_empty') return 'message_empty';
      if (error.code === 'restricted_term') return 'restricted_term';
      return 'validation_failed';
    case 428:
      return 'restricted_term';
    default:
      return 'send_failed';
  }
}

const frameCodes: Partial<Record<string, ChatErrorKey>> = {
  credits_depleted: 'credits_depleted',
  model_not_allowed: 'model_not_allowed',
  input_too_long: 'input_too_long',
  restricted_term: 'restricted_term',
};

/** An `error` frame that arrived in the middle of an answer. */
export function frameErrorKey(code: string): ChatErrorKey {
  return frameCodes[code] ?? 'stream_failed';
}
