import type { Chatbot, ChatFrame, ChatMeta, CustomField, LlmModel, Member, SessionMessage, SignupSettings, ToolCall } from '../../../shared/api';

/** The signed-in member as the session answers it: an approved organization member with a password; tests override what they look at. */
export function testMember(overrides: Partial<Member> = {}): Member {
  return {
    id: 7,
    name: 'Ada',
    email: 'ada@demo.test',
    is_admin: false,
    language: 'en',
    custom_fields: [],
    member_status: 'approved',
    member_type: 'organization',
    sso_platform_id: null,
    has_password: true,
    ...overrides,
  };
}

/** A tool call that ran: the demo server's current_time for Seoul; tests override what they look at. */
export function testToolCall(overrides: Partial<ToolCall> = {}): ToolCall {
  return {
    id: 'call-1',
    tool_id: 3,
    name: 'current_time',
    server_name: 'Demo tools',
    arguments: { timezone: 'Asia/Seoul' },
    status: 'ok',
    result: '2026-11-26T22:00:00+09:00',
    duration_ms: 1200,
    text_offset: 0,
    ...overrides,
  };
}

/**
 * A stored message as the history answers it: odd ids are the member's, even ones the chatbot's
 * answers, each following the one before on a single branch; tests override what they look at.
 */
export function testMessage(id: number, overrides: Partial<SessionMessage> = {}): SessionMessage {
  return {
    id,
    created_at: '2025-01-01T00:00:00Z',
    text: `message ${id}`,
    speaker_type: id % 2 ? 'member' : 'chatbot',
    files: [],
    interrupted: null,
    streaming: false,
    reasoning: null,
    reasoning_ms: null,
    citations: [],
    tool_calls: [],
    feedback: null,
    imported: null,
    parent_id: id > 1 ? id - 1 : null,
    sibling_count: 1,
    sibling_position: 1,
    ...overrides,
  };
}

/** A model as the server describes it; tests override what they look at. */
export function testModel(overrides: Partial<LlmModel> = {}): LlmModel {
  return {
    id: 1,
    name: 'demo',
    display_name: 'Demo Model',
    is_available: true,
    is_low_llm: false,
    is_unlimited: false,
    context_limit: 128_000,
    input_cost_per_10k: 3,
    output_cost_per_10k: 6,
    release_date: '2025-06-01',
    supports_thinking: false,
    ...overrides,
  };
}

/** A chatbot as `GET /chatbots/` answers it (every field of the contract), defaults to a tenant default one. */
export function testChatbot(overrides: Partial<Chatbot> = {}): Chatbot {
  return {
    id: 5,
    hash_id: 'c5',
    en_name: 'Helper',
    ko_name: '도우미',
    profile_image_url: null,
    en_key_features: '',
    ko_key_features: '',
    system_instructions: '',
    temperature: 1,
    top_p: 1,
    llm_model: testModel(),
    categories: [],
    is_public: false,
    is_default: true,
    waiting_publish: false,
    publish_status: 'none',
    publish_feedback: null,
    status: 'private',
    public_hash_id: null,
    member_group_ids: [],
    default_member_groups: [],
    public_queue: null,
    documents: [],
    tool_ids: [],
    tool_step_limit: 5,
    message_count: 0,
    token_count: 0,
    month_token_count: 0,
    creator: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    last_chat_at: null,
    ...overrides,
  };
}

/** The sign-up settings as `GET /tenants/sign-up-settings/` answers them: open, approved by an administrator, verified by email. */
export function testSignupSettings(overrides: Partial<SignupSettings> = {}): SignupSettings {
  return {
    signup_open: true,
    sso_only: false,
    sso_whitelist_only: false,
    group_change_approval: true,
    approval: 'admin',
    verification_methods: ['email'],
    ...overrides,
  };
}

/** An optional text custom field asked for at sign-up, named `name` in English. */
export function testCustomField(id: number, name: string, overrides: Partial<CustomField> = {}): CustomField {
  return {
    id,
    ko_name: '',
    en_name: name,
    field_name: name,
    field_type: 'text',
    is_signup_field: true,
    is_searchable: false,
    is_required: false,
    is_editable: true,
    is_unique: false,
    ...overrides,
  };
}

/** A chat answer as the server streams it: the meta header, then the frames as server-sent events. */
export function chatStream(meta: ChatMeta, frames: ChatFrame[]): Response {
  return new Response(frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream', 'x-chat-meta': JSON.stringify(meta) },
  });
}
