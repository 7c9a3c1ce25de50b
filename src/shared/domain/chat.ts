/** Chat stream output batching: one tick every 50 ms, more chunks per tick as the queue grows. */
export const STREAM_TICK_MS = 50;
export function chunksPerTick(queueLength: number): number {
  if (queueLength > 100) return 8;
  if (queueLength > 50) return 4;
  if (queueLength > 5) return 2;
  return 1;
}

/** Share of the model context above which the chat suggests starting a new session. */
export const LONG_CONVERSATION_CONTEXT_SHARE = 0.8;

/** Header carrying the chat stream's initial metadata (DESIGN §6). */
export const CHAT_META_HEADER = 'x-chat-meta';
