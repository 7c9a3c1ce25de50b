import { useRef } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { acceptAttribute } from '../../../../../shared/domain/files';
import { IconPaperclip } from '../../../components/icons';

/** The paperclip: opens the file picker for the kinds the server accepts. */
export function AttachButton({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useTranslation('files');
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Tooltip label={t('attach')}>
        <ActionIcon
          size="lg"
          radius="xl"
          variant="subtle"
          color="gray"
          onClick={() => input.current?.click()}
          disabled={disabled}
          aria-label={t('attach')}
          data-testid="attach-button"
        >
          <IconPaperclip />
        </ActionIcon>
      </Tooltip>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={acceptAttribute()}
        data-testid="attach-input"
        onChange={(event) => {
          onFiles(Array.from(event.currentTarget.files ?? []));
          event.currentTarget.value = '';
        }}
      />
    </>
  );
}
