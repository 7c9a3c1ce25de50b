import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CreatedApiKey } from '../../../../shared/api';
import { CopyButton } from '../../components/CopyButton';

/**
 * The one time a new key is shown: the server keeps only its hash, so closing this dialog loses
 * it for good. Closing needs the button (no click outside), so it is not dismissed by accident.
 */
export function KeyRevealDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const { t } = useTranslation('developers');
  return (
    <Modal opened={created !== null} onClose={onClose} closeOnClickOutside={false} title={t('reveal.title')} closeButtonProps={{ 'aria-label': t('close') }}>
      {created && (
        <Stack gap="md">
          <Alert color="yellow" variant="light" title={t('reveal.warning_title')} styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}>
            {t('reveal.warning')}
          </Alert>
          <Text size="sm" fw={600}>
            {created.name}
          </Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code block style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="revealed-key">
              {created.key}
            </Code>
            <CopyButton text={created.key} label={t('reveal.copy')} testId="copy-key" />
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus data-testid="reveal-done">
              {t('reveal.done')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
