/** Chat stream output batching (spec §9): the screen takes the streamed text at most once per tick. */
export const STREAM_TICK_MS = 50;

/** Share of the model context above which the chat suggests starting a new session. */
export const LONG_CONVERSATION_CONTEXT_SHARE = 0.8;

/** Header carrying the chat stream's initial metadata (DESIGN §6). */
export const CHAT_META_HEADER = 'x-chat-meta';
