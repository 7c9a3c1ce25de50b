/**
 * TanStack Query keys shared across features. The session list is an infinite query under
 * `sessions`; invalidate `queryKeys.sessions` after creating, renaming or deleting a session.
 */
export const queryKeys = {
  tenant: ['tenant'] as const,
  member: (memberId: number) => ['member', memberId] as const,
  creditCheck: (memberId: number) => ['credit-check', memberId] as const,
  memberUsage: (memberId: number) => ['member-usage', memberId] as const,
  memberGroups: (memberId: number) => ['member-groups', memberId] as const,
  dashboardChatbots: ['chatbots', 'dashboard'] as const,
  chatbot: (chatbotId: number) => ['chatbots', 'detail', chatbotId] as const,
  chatbotSearch: (searchTerm: string) => ['chatbots', 'search', searchTerm] as const,
  sessions: ['sessions'] as const,
  session: (hashId: string) => ['session', hashId] as const,
  sessionHistory: (hashId: string) => ['session', hashId, 'history'] as const,
  publicSession: (hashId: string) => ['public-session', hashId] as const,
  publicSessionHistory: (hashId: string) => ['public-session', hashId, 'history'] as const,
  activeAnnouncement: ['announcements', 'active'] as const,
  taskModes: ['task-modes'] as const,
  image: (url: string) => ['image', url] as const,
  adminAnnouncements: (page: number, size: number) => ['admin', 'announcements', page, size] as const,
  adminAnnouncementsAll: ['admin', 'announcements'] as const,
  piiSettings: ['pii-settings'] as const,
  adminPiiSettings: ['admin', 'pii-settings'] as const,
  restrictedWords: (page: number, size: number, search: string) => ['admin', 'restricted-words', page, size, search] as const,
  restrictedWordsAll: ['admin', 'restricted-words'] as const,
};
