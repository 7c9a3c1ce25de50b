import { create } from 'zustand';
import type { ChatRun } from './chatRun';

interface ActiveRunState {
  /**
   * The message being answered, or the last one when it ended with an error to show. It lives
   * outside the page component so that the URL change on session creation (and any remount it
   * causes) never loses the stream.
   */
  run: ChatRun | null;
  /** Composer text, kept when a send is refused so the user can edit and retry. */
  draft: string;
}

export const useActiveRunStore = create<ActiveRunState>(() => ({ run: null, draft: '' }));

/** Stops the running answer (its partial text is kept) and forgets it. */
export function discardActiveRun(): void {
  useActiveRunStore.getState().run?.stop();
  useActiveRunStore.setState({ run: null });
}
