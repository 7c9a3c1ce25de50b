/** Page sizes of the lists (spec §9). */
export const ANNOUNCEMENTS_PAGE_SIZE = 5;
export const SESSIONS_PAGE_SIZE = 30;
export const SESSION_HISTORY_PAGE_SIZE = 20;
export const DEFAULT_LIST_PAGE_SIZE = 10;
export const DASHBOARD_CHATBOT_LIST_SIZE = 30;
export const RECENT_CHATBOTS_KEPT = 3;
