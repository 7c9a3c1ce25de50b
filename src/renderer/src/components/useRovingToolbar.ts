import { useEffect, type RefObject } from 'react';

/**
 * Makes a toolbar one Tab stop (WAI-ARIA toolbar pattern): only the last focused button is in the
 * Tab order; Left/Right move between the enabled buttons (wrapping), Home/End jump to the ends.
 * Buttons that become disabled (Undo with nothing to undo) hand the Tab stop to the first enabled
 * one, so the toolbar never drops out of the Tab order.
 */
export function useRovingToolbar(toolbar: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = toolbar.current;
    if (!root) return;
    let current: HTMLButtonElement | null = null;
    const buttons = () => [...root.querySelectorAll<HTMLButtonElement>('button')];
    const enabled = () => buttons().filter((button) => !button.disabled);

    const sync = () => {
      const usable = enabled();
      if (!current || !usable.includes(current)) current = usable[0] ?? null;
      for (const button of buttons()) button.tabIndex = button === current ? 0 : -1;
    };
    const onFocusIn = (event: FocusEvent) => {
      const button = (event.target as Element).closest('button');
      if (!button || !root.contains(button)) return;
      current = button;
      sync();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const usable = enabled();
      const index = usable.indexOf(document.activeElement as HTMLButtonElement);
      if (index < 0) return;
      const last = usable.length - 1;
      const targets: Record<string, number> = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last };
      const target = targets[event.key];
      if (target === undefined) return;
      event.preventDefault();
      usable[target]?.focus();
    };

    sync();
    const observer = new MutationObserver(sync);
    observer.observe(root, { subtree: true, childList: true, attributeFilter: ['disabled'] });
    root.addEventListener('focusin', onFocusIn);
    root.addEventListener('keydown', onKeyDown);
    return () => {
      observer.disconnect();
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('keydown', onKeyDown);
    };
  }, [toolbar]);
}
