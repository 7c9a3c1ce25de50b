import { lazy, Suspense, useState } from 'react';
import { LanguageButton, type LanguageMenuProps } from './LanguageButton';

// The menu (a popover positioned by floating-ui, ~15 kB) arrives right after the first screen;
// until then its button stands alone, and a click on it opens the menu as soon as it is there.
const LanguageMenuPopover = lazy(() => import('./LanguageMenuPopover'));

/** Language control; each language is named in itself so everyone can find their own. */
export function LanguageMenu({ fullWidth = false }: LanguageMenuProps) {
  const [openWhenLoaded, setOpenWhenLoaded] = useState(false);
  return (
    <Suspense fallback={<LanguageButton fullWidth={fullWidth} aria-haspopup="menu" onClick={() => setOpenWhenLoaded(true)} />}>
      <LanguageMenuPopover fullWidth={fullWidth} defaultOpened={openWhenLoaded} />
    </Suspense>
  );
}
