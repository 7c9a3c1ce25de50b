import { create } from 'zustand';

/** The composer's web search toggle; it stays as the member left it for the next sends. */
export const useWebSearchStore = create<{ on: boolean }>(() => ({ on: false }));

/** The chat body fields of the toggle, for the send. */
export const webSearchFields = (): { web_search?: true } => (useWebSearchStore.getState().on ? { web_search: true } : {});
