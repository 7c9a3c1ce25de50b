import { forwardRef, lazy, Suspense, useState } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useResolvedLanguage } from '../i18n/useLanguage';
import { IconGlobe, IconChevron } from './icons';

// The menu (a popover positioned by floating-ui, ~15 kB) arrives right after the first screen;
// until then its button stands alone, and a click on it opens the menu as soon as it is there.
const LanguageMenuPopover = lazy(() => import('./LanguageMenuPopover'));

export interface LanguageMenuProps {
  fullWidth?: boolean;
}

/** The button that opens the language menu: the current language, named in itself. */
export const LanguageButton = forwardRef<HTMLButtonElement, ButtonProps & { onClick?: () => void }>(function LanguageButton(props, ref) {
  const { t } = useTranslation();
  const currentName = t(`language.names.${useResolvedLanguage()}`);
  return (
    <Button
      ref={ref}
      variant="subtle"
      color="gray"
      styles={{ label: { flex: 1, textAlign: 'start' } }}
      leftSection={<IconGlobe size={16} />}
      rightSection={<IconChevron size={14} />}
      // The name starts with the visible text (WCAG 2.5.3), then says what the button is for.
      aria-label={`${currentName} · ${t('language.label')}`}
      data-testid="language-menu"
      {...props}
    >
      {currentName}
    </Button>
  );
});

/** Language control; each language is named in itself so everyone can find their own. */
export function LanguageMenu({ fullWidth = false }: LanguageMenuProps) {
  const [openWhenLoaded, setOpenWhenLoaded] = useState(false);
  return (
    <Suspense fallback={<LanguageButton fullWidth={fullWidth} aria-haspopup="menu" onClick={() => setOpenWhenLoaded(true)} />}>
      <LanguageMenuPopover fullWidth={fullWidth} defaultOpened={openWhenLoaded} />
    </Suspense>
  );
}
