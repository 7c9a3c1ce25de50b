import { localizedName, type SupportedLanguage } from './language';

/**
 * Where a chatbot stands in its lifecycle (spec §4 chatbot publish), as the Studio shows it.
 * Derived from the stored flags, never stored itself, so it cannot disagree with them.
 */
export const CHATBOT_STATUSES = ['draft', 'private', 'shared', 'pending', 'public', 'rejected'] as const;
export type ChatbotStatus = (typeof CHATBOT_STATUSES)[number];

export interface ChatbotStatusFlags {
  koName: string;
  enName: string;
  isPublic: boolean;
  waitingPublish: boolean;
  publishStatus: 'none' | 'pending' | 'approved' | 'rejected';
  sharedGroupCount: number;
}

export function chatbotStatus(flags: ChatbotStatusFlags): ChatbotStatus {
  if (flags.isPublic) return 'public';
  if (flags.waitingPublish) return 'pending';
  if (flags.publishStatus === 'rejected') return 'rejected';
  if (flags.sharedGroupCount > 0) return 'shared';
  // A draft is what `POST /chatbots/` made and nobody has named yet.
  if (flags.koName.trim() === '' && flags.enName.trim() === '') return 'draft';
  return 'private';
}

/** Ranges the editor offers and the server enforces (spec §3 chatbot temperature, top_p). */
export const CHATBOT_LIMITS = {
  nameMax: 100,
  keyFeaturesMax: 1000,
  instructionsMax: 20_000,
  temperature: { min: 0, max: 2, step: 0.1 },
  topP: { min: 0, max: 1, step: 0.05 },
  sharedGroupsMax: 100,
  /** Custom public link: lower-case letters, digits and dashes. */
  publicHashPattern: /^[a-z0-9](?:[a-z0-9-]{2,62}[a-z0-9])$/,
} as const;

/** A chatbot's name in an interface language ('' for an unnamed draft). */
export function chatbotName(chatbot: { ko_name: string; en_name: string }, language: SupportedLanguage): string {
  return localizedName(chatbot, language);
}
