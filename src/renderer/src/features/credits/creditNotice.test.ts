import { describe, expect, it } from 'vitest';
import type { Chatbot, MemberUsage } from '../../../../shared/api';
import { contactKey, creditNotice, dismiss, dismissalKey } from './creditNotice';

const bot = (id: number, lowTier: boolean) => ({ id, is_default: true, llm_model: { is_low_llm: lowTier, is_unlimited: lowTier } }) as unknown as Chatbot;
const paid = bot(1, false);
const lowTier = bot(2, true);

const usage = (over: Partial<MemberUsage>): MemberUsage => ({
  period_start: '2026-11-01',
  period_end: '2026-11-30',
  limited_by: 'member',
  quota: 100,
  usage: 0,
  remaining: 100,
  percentage_used: 0,
  depleted: false,
  depletion_kind: 'team',
  message_count: 0,
  average_message_cost: null,
  estimated_messages_left: null,
  models: [],
  ...over,
});

function memoryStore() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

const notice = (over: Partial<MemberUsage>, { chatbot = paid, isLowLlmFree = true, store = memoryStore() } = {}) =>
  creditNotice({ usage: usage(over), memberId: 7, chatbot, chatbots: [paid, lowTier], isLowLlmFree, store });

describe('credit notice on the chat page (spec §4, §9)', () => {
  it('warns at 50 % and 80 % used, and at about 10 messages left before that', () => {
    expect(notice({ percentage_used: 49.99 })).toBeNull();
    expect(notice({ percentage_used: 50 })).toEqual({ type: 'warning', warning: 'used_50' });
    expect(notice({ percentage_used: 79.9, estimated_messages_left: 11 })).toEqual({ type: 'warning', warning: 'used_50' });
    expect(notice({ percentage_used: 80 })).toEqual({ type: 'warning', warning: 'used_80' });
    expect(notice({ percentage_used: 30, estimated_messages_left: 10 })).toEqual({ type: 'warning', warning: 'almost_depleted' });
    expect(notice({ percentage_used: 90, estimated_messages_left: 3 })).toEqual({ type: 'warning', warning: 'almost_depleted' });
  });

  it('shows a dismissed warning no more in the same period, and the next threshold still', () => {
    const store = memoryStore();
    dismiss(store, dismissalKey(7, '2026-11-01', 'used_50'));
    expect(notice({ percentage_used: 60 }, { store })).toBeNull();
    expect(notice({ percentage_used: 85 }, { store })).toEqual({ type: 'warning', warning: 'used_80' });
    expect(notice({ percentage_used: 60, period_start: '2026-12-01' }, { store })).toEqual({ type: 'warning', warning: 'used_50' });
  });

  it('when depleted on a paid chatbot names who ran out and leads to the low-tier chatbot where the plan allows it', () => {
    const depleted = { depleted: true, remaining: 0, percentage_used: 100, depletion_kind: 'tenant' as const };
    expect(notice(depleted)).toEqual({ type: 'depleted', depletion: 'tenant', lowTier });
    expect(notice(depleted, { isLowLlmFree: false })).toEqual({ type: 'depleted', depletion: 'tenant', lowTier: undefined });
    // Dismissing does not apply to the depleted state itself.
    const store = memoryStore();
    dismiss(store, dismissalKey(7, '2026-11-01', 'used_80'));
    expect(notice(depleted, { store })?.type).toBe('depleted');
  });

  it('on the low-tier chatbot, free under the plan, only says so once', () => {
    const store = memoryStore();
    const depleted = { depleted: true, remaining: 0, percentage_used: 100 };
    expect(notice(depleted, { chatbot: lowTier, store })).toEqual({ type: 'free_model' });
    dismiss(store, dismissalKey(7, '2026-11-01', 'free_model'));
    expect(notice(depleted, { chatbot: lowTier, store })).toBeNull();
    expect(notice(depleted, { chatbot: lowTier, isLowLlmFree: false })?.type).toBe('depleted');
  });

  it('points individuals to customer support, organisation members to their administrator', () => {
    expect(contactKey('individual', 'individual')).toBe('credits:contact.support');
    expect(contactKey('free_plan', 'individual')).toBe('credits:contact.support');
    expect(contactKey('free_plan', 'organization')).toBe('credits:contact.admin');
    expect(contactKey('team', 'organization')).toBe('credits:contact.admin');
    expect(contactKey('chatbot_creator', 'organization')).toBe('credits:contact.creator');
  });
});
