import { useEffect } from 'react';
import { ActionIcon, Group, Image, Paper, Progress, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type Attachment, formatSize, refreshProgress, removeAttachment, useAttachmentsStore } from './attachmentsStore';
import { showToast } from '../../../components/toast';
import classes from './attachments.module.css';
import { messageText } from '../../../i18n/keys';

const POLL_MS = 1000;

function stateKey(item: Attachment): 'uploading' | 'parsing' | 'parse_failed' | 'ready' | 'parsed_part' {
  if (item.state === 'uploading' || item.state === 'parsing') return item.state;
  if (item.state === 'failed') return 'parse_failed';
  return item.isImage || item.percentage >= 100 ? 'ready' : 'parsed_part';
}

/** The composer's attached files: name, size, progress and a remove button each; polls parse progress. */
export function AttachmentChips() {
  const { t, i18n } = useTranslation('files');
  const items = useAttachmentsStore((state) => state.items);
  const parsing = items.some((item) => item.state === 'parsing');

  useEffect(() => {
    if (!parsing) return;
    const timer = setInterval(() => void refreshProgress().catch(() => undefined), POLL_MS);
    return () => clearInterval(timer);
  }, [parsing]);

  if (items.length === 0) return null;
  return (
    <Group gap="xs" className={classes.chips} data-testid="attachment-chips" role="list" aria-label={t('attached')}>
      {items.map((item) => {
        const label = t(stateKey(item), { percentage: item.percentage });
        const busy = item.state === 'uploading' || item.state === 'parsing';
        return (
          <Paper key={item.key} withBorder radius="md" className={classes.chip} role="listitem" data-testid="attachment-chip" data-state={item.state}>
            {item.previewUrl && <Image src={item.previewUrl} alt="" w={32} h={32} radius="sm" fit="cover" />}
            <div className={classes.chipText}>
              <Text size="xs" fw={500} truncate="end" title={item.name}>
                {item.name}
              </Text>
              <Text size="xs" c={item.state === 'failed' ? 'red' : 'dimmed'}>
                {formatSize(item.size, i18n.language)} · <span role="status">{label}</span>
              </Text>
              {busy && (
                <Progress
                  size="xs"
                  mt={2}
                  value={Math.max(item.percentage, 3)}
                  animated={item.state === 'uploading'}
                  aria-label={t('progress', { name: item.name })}
                />
              )}
            </div>
            <Tooltip label={t('remove')}>
              <ActionIcon
                size="sm"
                variant="subtle"
                color="gray"
                onClick={() => removeAttachment(item.key, (key) => showToast('error', messageText(key)))}
                aria-label={t('remove_named', { name: item.name })}
              >
                <svg width={14} height={14} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
                  <path d="M18 6 6 18M6 6l12 12" />
                </svg>
              </ActionIcon>
            </Tooltip>
          </Paper>
        );
      })}
    </Group>
  );
}
