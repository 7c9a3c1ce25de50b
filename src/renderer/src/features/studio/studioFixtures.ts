import type { Chatbot } from '../../../../shared/api';
import { testChatbot } from '../../test/fixtures';

/** A studio chatbot: testChatbot as its creator Ada left it, a private one with a description and instructions. */
export function chatbotFixture(patch: Partial<Chatbot> = {}): Chatbot {
  return testChatbot({
    id: 7,
    hash_id: 'c7',
    ko_name: '',
    en_key_features: 'Answers questions',
    system_instructions: 'Be brief.',
    is_default: false,
    creator: { id: 3, name: 'Ada' },
    updated_at: '2025-03-07T00:00:00Z',
    ...patch,
  });
}
