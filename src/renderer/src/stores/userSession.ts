import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { Member } from '../../../shared/api';
import type { SupportedLanguage } from '../../../shared/domain/language';

/** The user-data of spec §3: profile fields and language. Tokens are never stored here. */
export interface UserSessionState {
  member: Member | null;
  /** Chosen language; null until the user picks one (then the browser language decides). */
  language: SupportedLanguage | null;
  setMember: (member: Member) => void;
  setLanguage: (language: SupportedLanguage) => void;
  /** Sign-out or an ended session: forget the profile, keep the language. */
  clear: () => void;
}

export const USER_DATA_STORAGE_KEY = 'user-data';

export const useUserSession = create<UserSessionState>()(
  persist(
    (set) => ({
      member: null,
      language: null,
      setMember: (member) => set({ member }),
      setLanguage: (language) => set({ language }),
      clear: () => set({ member: null }),
    }),
    {
      name: USER_DATA_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ member, language }) => ({ member, language }),
    },
  ),
);
