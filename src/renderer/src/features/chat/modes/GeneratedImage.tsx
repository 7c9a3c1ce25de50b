import { useEffect, useState } from 'react';
import { ActionIcon, Alert, Group, Skeleton, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fetchFileBlob } from '../../../api/files';
import { useImage } from '../../../api/images';
import { saveBlob } from '../../../components/saveBlob';
import { showToast } from '../../../components/toast';
import { imageFallbackName } from './imageFiles';
import classes from './modes.module.css';
import { IconCopy, IconDownload } from '../../../components/icons';

/** A blob: URL for the image while it is on screen, revoked after. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const objectUrl = URL.createObjectURL(blob);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob]);
  return url;
}

/** A generated image in an answer, with buttons to download it and copy it to the clipboard. */
export function GeneratedImage({ url, name }: { url: string; name?: string }) {
  const { t } = useTranslation('modes');
  const image = useImage(url);
  const src = useObjectUrl(image.data);
  const fileName = name ?? imageFallbackName(url);
  // Loaded already, or fetched again now (the first load may have failed).
  const blob = async () => image.data ?? (await fetchFileBlob(url));

  const download = async () => {
    try {
      saveBlob(await blob(), fileName);
    } catch {
      showToast('error', t('errors.image_download'));
    }
  };
  const copy = async () => {
    try {
      const data = await blob();
      await navigator.clipboard.write([new ClipboardItem({ [data.type]: data })]);
      showToast('success', t('image.copied'));
    } catch {
      showToast('error', t('errors.image_copy'));
    }
  };

  return (
    <figure className={classes.image} data-testid="generated-image">
      {image.isError ? (
        <Alert color="red" variant="light">
          {t('image.load_failed')}
        </Alert>
      ) : src ? (
        <img src={src} alt={t('image.alt', { name: fileName })} className={classes.picture} />
      ) : (
        <Skeleton className={classes.picture} h={240} aria-label={t('image.loading')} />
      )}
      <Group gap={4} mt={4}>
        <Tooltip label={t('image.download')}>
          <ActionIcon variant="subtle" color="gray" onClick={() => void download()} aria-label={t('image.download')} data-testid="image-download">
            <IconDownload size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('image.copy')}>
          <ActionIcon variant="subtle" color="gray" onClick={() => void copy()} aria-label={t('image.copy')} data-testid="image-copy">
            <IconCopy size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </figure>
  );
}
