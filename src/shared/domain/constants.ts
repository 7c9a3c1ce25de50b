/** Business constants of spec §9. */
export const ANNOUNCEMENTS_PAGE_SIZE = 5;
export const ANNOUNCEMENT_COLLAPSE_HEIGHT_PX = 250;
export const SESSIONS_PAGE_SIZE = 30;
export const SESSION_HISTORY_PAGE_SIZE = 20;
export const DEFAULT_LIST_PAGE_SIZE = 10;
export const DASHBOARD_CHATBOT_LIST_SIZE = 30;
export const RECENT_CHATBOTS_KEPT = 3;
export const NAV_BAR_WIDTH_PX = 264;
export const SKELETON_MIN_DISPLAY_MS = 2000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX_VISIBLE = 3;
export const ERROR_LOG_FIELD_MAX = 2900;
export const EMAIL_MAX_EXCLUSIVE = 255;
export const PASSWORD_MIN = 8;
export const SUPPORTED_LANGUAGES = ['ko', 'en', 'zh', 'ja', 'es'] as const;
export const FALLBACK_LANGUAGE = 'en';

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
export const ACCESS_TOKEN_HEADER = 'x-access-token';
export const SUBDOMAIN_HEADER = 'x-subdomain';
export const SUBDOMAIN_COOKIE = 'subdomain';
export const REFRESH_COOKIE = 'refresh_token';
/** Desktop clients ask for the refresh token in the body instead of a cookie. */
export const CLIENT_KIND_HEADER = 'x-client-kind';
export const API_PREFIX = '/api/v1';
