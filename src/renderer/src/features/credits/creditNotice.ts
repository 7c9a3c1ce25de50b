import type { Chatbot, Member, MemberUsage } from '../../../../shared/api';
import { creditWarning, type DepletionKind } from '../../../../shared/domain/credits';
import type { KeyValueStore } from '../announcements/announcementDismissal';
import type { MessageKey } from '../../i18n/keys';

/** The first default chatbot on the unlimited low-tier model: usable with credits depleted under is_low_llm_free. */
export const lowTierChatbot = (chatbots: readonly Chatbot[]): Chatbot | undefined =>
  chatbots.find((chatbot) => chatbot.is_default && chatbot.llm_model.is_low_llm && chatbot.llm_model.is_unlimited);

/**
 * What the chat page says about credits above the composer:
 * - `depleted`: this chatbot's model needs credits and none are left; names who ran out and, where
 *   the plan has free low-tier models, leads to the low-tier chatbot. Not dismissable.
 * - `free_model`: credits are depleted but this chatbot runs on the unlimited model, free under
 *   the plan; dismissable.
 * - `warning`: 50 % or 80 % used, or about 10 messages left; dismissable.
 */
export type CreditNotice =
  | { type: 'depleted'; depletion: DepletionKind; lowTier: Chatbot | undefined }
  | { type: 'free_model' }
  | { type: 'warning'; warning: 'used_50' | 'used_80' | 'almost_depleted' };

/** Key of a dismissed notice: one per member, period and threshold, so each shows again next month. */
export const dismissalKey = (memberId: number, periodStart: string, notice: 'used_50' | 'used_80' | 'almost_depleted' | 'free_model') =>
  `credit-notice:${memberId}:${periodStart}:${notice}`;

export const isDismissed = (store: KeyValueStore, key: string) => store.getItem(key) !== null;
export const dismiss = (store: KeyValueStore, key: string) => store.setItem(key, '1');

interface NoticeInput {
  usage: MemberUsage;
  memberId: number;
  chatbot: Chatbot;
  chatbots: readonly Chatbot[];
  isLowLlmFree: boolean;
  store: KeyValueStore;
}

export function creditNotice({ usage, memberId, chatbot, chatbots, isLowLlmFree, store }: NoticeInput): CreditNotice | null {
  const warning = creditWarning(usage);
  if (warning === null) return null;
  const shown = (notice: 'used_50' | 'used_80' | 'almost_depleted' | 'free_model') => !isDismissed(store, dismissalKey(memberId, usage.period_start, notice));
  if (warning !== 'depleted') return shown(warning) ? { type: 'warning', warning } : null;
  if (isLowLlmFree && chatbot.llm_model.is_unlimited) return shown('free_model') ? { type: 'free_model' } : null;
  const lowTier = isLowLlmFree ? lowTierChatbot(chatbots) : undefined;
  return { type: 'depleted', depletion: usage.depletion_kind ?? 'team', lowTier };
}

/**
 * What to do about depleted credits (spec §6): an individual has no administrator and asks customer
 * support (upgrade or more credits); an organisation member asks their administrator; a chatbot
 * paid by its creator is for the creator to fix.
 */
export function contactKey(depletion: DepletionKind, memberType: Member['member_type']): MessageKey {
  if (depletion === 'chatbot_creator') return 'credits:contact.creator';
  return memberType === 'individual' ? 'credits:contact.support' : 'credits:contact.admin';
}
