import { LONG_CONVERSATION_CONTEXT_SHARE } from '../../../../shared/domain/chat';
import type { Chatbot } from '../../../../shared/api';
import type { SupportedLanguage } from '../../../../shared/domain/language';

/** Spec: a conversation filling most of the model's context should move to a new session. */
export function isLongConversation(contextTokens: number, contextLimit: number): boolean {
  return contextLimit > 0 && contextTokens > contextLimit * LONG_CONVERSATION_CONTEXT_SHARE;
}

/** Entities carry Korean and English names; every language but Korean shows the English one. */
export function chatbotName(chatbot: Pick<Chatbot, 'ko_name' | 'en_name'>, language: SupportedLanguage): string {
  return (language === 'ko' ? chatbot.ko_name || chatbot.en_name : chatbot.en_name || chatbot.ko_name).trim();
}
