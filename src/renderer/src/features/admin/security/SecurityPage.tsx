import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminPageFrame } from '../AdminPageFrame';
import { PiiSettingsCard } from './PiiSettingsCard';
import { RestrictedWordsCard } from './RestrictedWordsCard';

/** Admin "restricted words and privacy blocking" (spec §2, §3, §5). */
export default function SecurityPage() {
  const { t } = useTranslation('security');
  return (
    <AdminPageFrame title={t('page.title')} description={t('page.description')} maw={960}>
      <Stack gap="lg">
        <PiiSettingsCard />
        <RestrictedWordsCard />
      </Stack>
    </AdminPageFrame>
  );
}
