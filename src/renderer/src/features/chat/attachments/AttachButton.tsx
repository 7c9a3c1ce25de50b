import { useRef } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { acceptAttribute } from '../../../../../shared/domain/files';

/** The paperclip: opens the file picker for the kinds the server accepts. */
export function AttachButton({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useTranslation('files');
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Tooltip label={t('attach')}>
        <ActionIcon size="lg" radius="xl" variant="subtle" color="gray" onClick={() => input.current?.click()} disabled={disabled} aria-label={t('attach')} data-testid="attach-button">
          <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="m21.4 11.1-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" />
          </svg>
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
