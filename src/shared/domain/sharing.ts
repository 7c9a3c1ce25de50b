/** Public sessions and titles (spec §4 public chat, §6 public paths). */

/** Client route of a shared session: `${SHARED_SESSION_ROUTE}/{hash}`; outside /dashboard, no sign-in. */
export const SHARED_SESSION_ROUTE = '/share';

/**
 * Client route of a public chatbot's page: `${PUBLIC_CHATBOT_ROUTE}/{hash}` (its hash id or custom
 * link), then `/{sessionHash}` once the visitor's chat has a session. No sign-in.
 */
export const PUBLIC_CHATBOT_ROUTE = '/chatbots';

/** Query parameter of a shared link naming its workspace (tenant), for browsers that have none. */
export const SHARED_WORKSPACE_PARAM = 'workspace';

/** Spec §6: public paths are called with this token value instead of a member's access token. */
export const PUBLIC_ACCESS_TOKEN = 'public';

/** Anonymous visitors' sends to a public chatbot, per client IP (they spend the creator's credits). */
export const PUBLIC_CHAT_RATE_LIMIT = { limit: 20, windowMs: 10 * 60_000 };

/** Anonymous title generations (each is a model call), per client IP. */
export const PUBLIC_TITLE_RATE_LIMIT = { limit: 20, windowMs: 10 * 60_000 };

/** A generated title is cut at this many characters, like the fallback from the first message. */
export const SESSION_TITLE_MAX = 60;

/** Chatbots listed by the chat header's switcher per search. */
export const CHATBOT_SWITCHER_SIZE = 20;
