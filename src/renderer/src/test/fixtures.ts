import type { Chatbot, LlmModel } from '../../../shared/api';

/** A model as the server describes it; tests override what they look at. */
export function testModel(overrides: Partial<LlmModel> = {}): LlmModel {
  return {
    id: 1, name: 'demo', display_name: 'Demo Model', is_available: true, is_low_llm: false, is_unlimited: false, context_limit: 128_000,
    input_cost_per_10k: 3, output_cost_per_10k: 6, release_date: '2025-06-01', supports_thinking: false, ...overrides,
  };
}

/** A chatbot as `GET /chatbots/` answers it (every field of the contract), defaults to a tenant default one. */
export function testChatbot(overrides: Partial<Chatbot> = {}): Chatbot {
  return {
    id: 5, hash_id: 'c5', en_name: 'Helper', ko_name: '도우미', profile_image_url: null, en_key_features: '', ko_key_features: '', system_instructions: '',
    temperature: 1, top_p: 1, llm_model: testModel(), categories: [], is_public: false, is_default: true, waiting_publish: false, publish_status: 'none',
    publish_feedback: null, status: 'private', public_hash_id: null, member_group_ids: [], default_member_groups: [], public_queue: null, documents: [],
    message_count: 0, token_count: 0, month_token_count: 0, creator: null, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', last_chat_at: null,
    ...overrides,
  };
}
