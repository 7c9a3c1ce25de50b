import { forwardRef } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useResolvedLanguage } from '../i18n/useLanguage';
import { IconGlobe, IconChevron } from './icons';

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
