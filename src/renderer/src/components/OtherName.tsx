import { Text } from '@mantine/core';
import { type BilingualName, localizedName, type SupportedLanguage } from '../../../shared/domain/language';

/** Under a name shown in the interface language: the other language's name, when there is one and it differs. */
export function OtherName({ named, language }: { named: BilingualName; language: SupportedLanguage }) {
  const shown = localizedName(named, language);
  const other = (language === 'ko' ? named.en_name : named.ko_name).trim();
  if (other === '' || other === shown) return null;
  return (
    <Text size="xs" c="dimmed">
      {other}
    </Text>
  );
}
