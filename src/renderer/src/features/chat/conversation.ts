import { LONG_CONVERSATION_CONTEXT_SHARE } from '../../../../shared/domain/chat';

/** Spec: a conversation filling most of the model's context should move to a new session. */
export function isLongConversation(contextTokens: number, contextLimit: number): boolean {
  return contextLimit > 0 && contextTokens > contextLimit * LONG_CONVERSATION_CONTEXT_SHARE;
}
