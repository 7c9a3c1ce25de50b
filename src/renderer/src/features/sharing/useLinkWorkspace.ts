import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SHARED_WORKSPACE_PARAM } from '../../../../shared/domain/sharing';
import { adoptLinkWorkspace } from '../../api/publicSessions';
import { useUserSession } from '../../stores/userSession';

/**
 * What a public page starts from: the signed-in member (null for a visitor), and whether the
 * workspace its link names is in effect, which it is before the page asks for anything (see
 * adoptLinkWorkspace).
 */
export function useLinkWorkspace() {
  const member = useUserSession((state) => state.member);
  const [params] = useSearchParams();
  const workspace = params.get(SHARED_WORKSPACE_PARAM);
  const signedIn = member !== null;
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let current = true;
    void adoptLinkWorkspace(workspace, signedIn).finally(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [workspace, signedIn]);
  return { member, ready };
}
