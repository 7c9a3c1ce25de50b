import type { Chatbot, ChatFrame, ChatMeta } from '../../../../shared/api';

export const model = {
  id: 1, name: 'demo', display_name: 'Demo Model', is_available: true, is_low_llm: false, is_unlimited: false, context_limit: 128_000,
  input_cost_per_10k: 3, output_cost_per_10k: 6, release_date: '2025-06-01', supports_thinking: false,
};

export function chatbotFixture(patch: Partial<Chatbot> = {}): Chatbot {
  return {
    id: 7, hash_id: 'c7', en_name: 'Helper', ko_name: '', profile_image_url: null, en_key_features: 'Answers questions', ko_key_features: '',
    system_instructions: 'Be brief.', temperature: 1, top_p: 1, llm_model: model, categories: [], is_public: false, is_default: false,
    waiting_publish: false, publish_status: 'none', publish_feedback: null, status: 'private', public_hash_id: null, member_group_ids: [], default_member_groups: [], public_queue: null, documents: [],
    message_count: 0, token_count: 0, month_token_count: 0, creator: { id: 3, name: 'Ada' }, created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-03-07T00:00:00Z', last_chat_at: null, ...patch,
  };
}

export function chatStream(meta: ChatMeta, frames: ChatFrame[]) {
  return new Response(frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream', 'x-chat-meta': JSON.stringify(meta) },
  });
}
