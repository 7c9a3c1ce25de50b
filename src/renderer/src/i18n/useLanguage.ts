import { useCallback, useEffect } from 'react';
import { membersApi } from '../../../shared/api';
import { resolveLanguage, type SupportedLanguage } from '../../../shared/domain/language';
import { useEndpointMutation } from '../api/endpointHooks';
import { useUserSession } from '../stores/userSession';

/** The language in effect: the stored choice, else ko or en from the browser (spec §4). */
export function useResolvedLanguage(): SupportedLanguage {
  const stored = useUserSession((state) => state.language);
  return resolveLanguage(stored, navigator.language);
}

/** Changing the language stores it locally and, when signed in, on the member record. */
export function useChangeLanguage(): (language: SupportedLanguage) => void {
  const { mutate: save } = useEndpointMutation(membersApi.patchMember, { onSuccess: (saved) => useUserSession.getState().setMember(saved) });
  return useCallback(
    (language: SupportedLanguage) => {
      const { member, setMember, setLanguage } = useUserSession.getState();
      setLanguage(language);
      if (!member) return;
      // Recorded at once, so useMemberLanguageSync finds nothing to save: one PATCH per change.
      setMember({ ...member, language });
      save({ params: { id: member.id }, body: { language } });
    },
    [save],
  );
}

/**
 * Keeps the member record's language equal to the language on screen. The server creates members
 * with ko, so without this an English-speaking member would get Korean from everything the server
 * writes in the member's language (the demo model's answers, later e-mails).
 */
export function useMemberLanguageSync(): void {
  const language = useResolvedLanguage();
  const member = useUserSession((state) => state.member);
  const setMember = useUserSession((state) => state.setMember);
  // A failure is reported like any failed call (5xx, network), without a toast; the next start tries again.
  const { mutate: save } = useEndpointMutation(membersApi.patchMember, { errorToast: false, onSuccess: setMember });
  const memberId = member?.id;
  const recorded = member?.language;
  useEffect(() => {
    if (memberId === undefined || recorded === language) return;
    save({ params: { id: memberId }, body: { language } });
  }, [memberId, recorded, language, save]);
}
