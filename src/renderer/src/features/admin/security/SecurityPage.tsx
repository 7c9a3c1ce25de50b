import { Box, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../components/useDocumentTitle';
import { PiiSettingsCard } from './PiiSettingsCard';
import { RestrictedWordsCard } from './RestrictedWordsCard';

/** Admin "restricted words and privacy blocking" (spec §2, §3, §5). */
export default function SecurityPage() {
  const { t } = useTranslation('security');
  useDocumentTitle(t('page.title'));
  return (
    <Box px={{ base: 'md', sm: 40 }} py={32} maw={960}>
      <Stack gap={4} mb="xl">
        <Title order={1} size="h2">
          {t('page.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('page.description')}
        </Text>
      </Stack>
      <Stack gap="lg">
        <PiiSettingsCard />
        <RestrictedWordsCard />
      </Stack>
    </Box>
  );
}
