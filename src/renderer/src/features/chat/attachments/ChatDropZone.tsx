import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './attachments.module.css';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

/** The chat page as a drop target: files dropped anywhere on it are attached to the next message. */
export function ChatDropZone({
  className,
  onFiles,
  disabled,
  children,
}: {
  className?: string;
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('files');
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const reset = () => {
    depth.current = 0;
    setOver(false);
  };
  return (
    <div
      className={`${className ?? ''} ${classes.dropTarget}`}
      data-testid="chat-drop-zone"
      onDragEnter={(event) => {
        if (disabled || !carriesFiles(event)) return;
        event.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (disabled || !carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        if (--depth.current <= 0) reset();
      }}
      onDrop={(event) => {
        if (disabled || !carriesFiles(event)) return;
        event.preventDefault();
        reset();
        onFiles(Array.from(event.dataTransfer.files));
      }}
    >
      {children}
      {over && (
        <div className={classes.dropOverlay} aria-hidden="true">
          <Text fw={600}>{t('drop_here')}</Text>
        </div>
      )}
    </div>
  );
}
