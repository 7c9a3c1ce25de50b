import { useEffect, useRef, useState } from 'react';
import { SKELETON_MIN_DISPLAY_MS } from '../../../shared/domain/ui';

/**
 * True while `loading`, and until at least `minimumMs` have passed since loading began, so a
 * skeleton never flashes (spec §2: at least 2 seconds per area).
 */
export function useMinimumLoading(loading: boolean, minimumMs = SKELETON_MIN_DISPLAY_MS): boolean {
  const startedAt = useRef<number | null>(loading ? Date.now() : null);
  const [holding, setHolding] = useState(loading);

  useEffect(() => {
    if (loading) {
      startedAt.current ??= Date.now();
      setHolding(true);
      return;
    }
    if (startedAt.current === null) return;
    const remaining = minimumMs - (Date.now() - startedAt.current);
    startedAt.current = null;
    if (remaining <= 0) {
      setHolding(false);
      return;
    }
    const timer = setTimeout(() => setHolding(false), remaining);
    return () => clearTimeout(timer);
  }, [loading, minimumMs]);

  return loading || holding;
}
