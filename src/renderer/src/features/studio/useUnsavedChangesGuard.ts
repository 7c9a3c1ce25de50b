import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';

/**
 * Unsaved edits are not lost by accident: leaving the route asks first (the caller shows the
 * blocker's question), closing or reloading the tab gets the browser's own question. `allowNextLeave`
 * lets a deliberate exit (after deleting the chatbot) through.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const allowed = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !allowed.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return {
    blocker,
    allowNextLeave: () => {
      allowed.current = true;
    },
  };
}
