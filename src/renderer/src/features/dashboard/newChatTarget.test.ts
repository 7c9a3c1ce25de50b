import { describe, expect, it } from 'vitest';
import type { Chatbot } from '../../../../shared/api';
import { newChatPath } from './newChatTarget';

const bot = (id: number, isDefault: boolean, isLow: boolean, isUnlimited = isLow) =>
  ({ id, is_default: isDefault, llm_model: { is_low_llm: isLow, is_unlimited: isUnlimited } }) as unknown as Chatbot;
const chatbots = [bot(1, true, false), bot(2, false, true), bot(5, true, true, false), bot(3, true, true), bot(4, true, true)];

describe('New chat link (spec §2)', () => {
  it('points at the first low-tier default chatbot on the unlimited model when credits are depleted on a plan with free low-tier models', () => {
    // 2 is not a default chatbot; 5 is low-tier but not unlimited, so the server would refuse it too.
    expect(newChatPath({ chatbots, creditsDepleted: true, isLowLlmFree: true, openChatbotId: 1 })).toBe('/dashboard/chat/3');
  });

  it('otherwise points at the chatbot currently open', () => {
    expect(newChatPath({ chatbots, creditsDepleted: true, isLowLlmFree: false, openChatbotId: 1 })).toBe('/dashboard/chat/1');
    expect(newChatPath({ chatbots, creditsDepleted: false, isLowLlmFree: true, openChatbotId: 4 })).toBe('/dashboard/chat/4');
    expect(newChatPath({ chatbots, creditsDepleted: false, isLowLlmFree: false, openChatbotId: null })).toBe('/dashboard/chat');
    expect(newChatPath({ chatbots: [bot(1, true, false)], creditsDepleted: true, isLowLlmFree: true, openChatbotId: 1 })).toBe('/dashboard/chat/1');
  });
});
