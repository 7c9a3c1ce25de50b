import type { Chatbot } from '../../../../shared/api';
import { lowTierChatbot } from '../credits/creditNotice';

interface NewChatInput {
  chatbots: readonly Chatbot[];
  creditsDepleted: boolean;
  isLowLlmFree: boolean;
  openChatbotId: number | null;
}

/**
 * Where "New chat" leads (spec §2): with credits depleted on a plan whose low-tier models are
 * free, the first low-tier default chatbot whose model is the unlimited one (the only model the
 * server still answers with); otherwise the chatbot currently open (or the chat start page when
 * none is).
 */
export function newChatPath({ chatbots, creditsDepleted, isLowLlmFree, openChatbotId }: NewChatInput): string {
  if (creditsDepleted && isLowLlmFree) {
    const lowTier = lowTierChatbot(chatbots);
    if (lowTier) return `/dashboard/chat/${lowTier.id}`;
  }
  return openChatbotId === null ? '/dashboard/chat' : `/dashboard/chat/${openChatbotId}`;
}

/** Id of the navigation's New chat link: where focus goes when a deletion empties My chats. */
export const NEW_CHAT_LINK_ID = 'new-chat-link';
