import { useEffect, useState } from 'react';
import { adoptLinkWorkspace } from '../../api/publicSessions';

/** The link's workspace is in effect before the page asks for anything (see adoptLinkWorkspace). */
export function useLinkWorkspace(workspace: string | null, signedIn: boolean): { ready: boolean } {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let current = true;
    void adoptLinkWorkspace(workspace, signedIn).finally(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [workspace, signedIn]);
  return { ready };
}

