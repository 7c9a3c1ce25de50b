import { Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../../shared/domain/language';
import { useChangeLanguage, useResolvedLanguage } from '../i18n/useLanguage';
import { LanguageButton, type LanguageMenuProps } from './LanguageButton';

/** The language menu itself (LanguageMenu loads it after the first screen). */
export default function LanguageMenuPopover({ fullWidth, defaultOpened }: LanguageMenuProps & { defaultOpened: boolean }) {
  const { t } = useTranslation();
  const language = useResolvedLanguage();
  const changeLanguage = useChangeLanguage();
  return (
    // Its target never scrolls away (sign-in header, navigation footer), so the "hide when the
    // target is out of view" check is off: jsdom, without layout, judged it hidden at random.
    <Menu position="top-start" width={180} shadow="md" hideDetached={false} defaultOpened={defaultOpened}>
      <Menu.Target>
        <LanguageButton fullWidth={fullWidth} />
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
