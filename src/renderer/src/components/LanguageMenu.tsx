import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../../shared/domain/language';
import { useChangeLanguage, useResolvedLanguage } from '../i18n/useLanguage';
import { IconGlobe, IconChevron } from './icons';

/** Language control; each language is named in itself so everyone can find their own. */
export function LanguageMenu({ fullWidth = false }: { fullWidth?: boolean }) {
  const { t } = useTranslation();
  const language = useResolvedLanguage();
  const changeLanguage = useChangeLanguage();
  const currentName = t(`language.names.${language}`);
  return (
    // Its target never scrolls away (sign-in header, navigation footer), so the "hide when the
    // target is out of view" check is off: jsdom, without layout, judged it hidden at random.
    <Menu position="top-start" width={180} shadow="md" hideDetached={false}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          fullWidth={fullWidth}
          styles={{ label: { flex: 1, textAlign: 'start' } }}
          leftSection={<IconGlobe size={16} />}
          rightSection={<IconChevron size={14} />}
          // The name starts with the visible text (WCAG 2.5.3), then says what the button is for.
          aria-label={`${currentName} · ${t('language.label')}`}
          data-testid="language-menu"
        >
          {currentName}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('language.label')}</Menu.Label>
        {LANGUAGES.map((option) => (
          <Menu.Item key={option} onClick={() => changeLanguage(option)} fw={option === language ? 600 : undefined} lang={option}>
            {t(`language.names.${option}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
