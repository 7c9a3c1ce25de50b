import { useEffect, useState } from 'react';
import { Button, Image, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionFile } from '../../../../../shared/api';
import { fetchFileBlob } from '../../../api/files';
import { errorKeyOf } from '../../../api/errorMessages';
import { showToast } from '../../../components/toast';
import classes from './attachments.module.css';
import { messageText } from '../../../i18n/keys';

/** Saves a file the member sent, fetched with their credentials; `onProgress` follows the download. */
async function openFile(file: SessionFile, onProgress?: (percentage: number) => void): Promise<void> {
  const blob = await fetchFileBlob(file.url, onProgress);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function Thumbnail({ file, onOpen }: { file: SessionFile; onOpen: () => void }) {
  const { t } = useTranslation('files');
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    fetchFileBlob(file.url).then(
      (blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [file.url]);
  return (
    <button type="button" className={classes.thumb} onClick={onOpen} aria-label={t('open_named', { name: file.name })}>
      {src ? (
        <Image src={src} alt={file.name} h={96} w="auto" maw={200} radius="md" fit="cover" />
      ) : (
        <Button component="span" variant="default" size="xs">
          {file.name}
        </Button>
      )}
    </button>
  );
}

/** A document the member sent: opened (downloaded) on click, with the download's progress on the chip. */
function DocumentChip({ file }: { file: SessionFile }) {
  const { t } = useTranslation('files');
  const [percentage, setPercentage] = useState<number | null>(null);
  const open = () => {
    if (percentage !== null) return;
    setPercentage(0);
    openFile(file, setPercentage)
      .catch((error: unknown) => showToast('error', messageText(errorKeyOf(error))))
      .finally(() => setPercentage(null));
  };
  return (
    <Button variant="default" size="xs" radius="md" onClick={open} aria-label={t('open_named', { name: file.name })} aria-busy={percentage !== null}>
      {file.name}
      {percentage !== null && (
        <Text span size="xs" c="dimmed" ml={6} role="status" aria-label={t('downloading_named', { name: file.name, percentage })}>
          {percentage}%
        </Text>
      )}
    </Button>
  );
}

/** The files of a member's message: image thumbnails and document chips, each opened on click. */
export function MessageFiles({ files }: { files: readonly SessionFile[] }) {
  if (files.length === 0) return null;
  const open = (file: SessionFile) => void openFile(file).catch((error: unknown) => showToast('error', messageText(errorKeyOf(error))));
  return (
    <div className={classes.files} data-testid="message-files">
      {files.map((file) =>
        file.type.startsWith('image/') ? <Thumbnail key={file.id} file={file} onOpen={() => open(file)} /> : <DocumentChip key={file.id} file={file} />,
      )}
    </div>
  );
}
