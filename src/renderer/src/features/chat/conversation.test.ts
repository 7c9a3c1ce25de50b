import { describe, expect, it } from 'vitest';
import { isLongConversation } from './conversation';
import { chatbotName } from '../../../../shared/domain/chatbots';

describe('isLongConversation', () => {
  it('is true only above 80 % of the model context', () => {
    expect(isLongConversation(8000, 10_000)).toBe(false);
    expect(isLongConversation(8001, 10_000)).toBe(true);
    expect(isLongConversation(5000, 0)).toBe(false);
  });
});

describe('chatbotName', () => {
  it('shows the Korean name in Korean and the English one in every other language', () => {
    const chatbot = { ko_name: '도우미', en_name: 'Helper' };
    expect(chatbotName(chatbot, 'ko')).toBe('도우미');
    expect(chatbotName(chatbot, 'ja')).toBe('Helper');
    expect(chatbotName({ ko_name: '', en_name: 'Helper' }, 'ko')).toBe('Helper');
  });
});
