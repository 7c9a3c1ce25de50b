import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../ConfirmDialog';

interface BulkDeleteOptions {
  /** The namespace of its texts: delete_selected, delete_title and delete_body (with a count), cancel, delete. */
  ns: string;
  selected: number[];
  /** The delete is running: the confirm button spins. */
  deleting: boolean;
  onDelete: (ids: number[]) => void;
}

/**
 * Deleting the selected rows after a confirmation: `button` goes among the `BulkActions`, `dialog`
 * outside them (so it closes with its transition when the selection empties), `close()` once the
 * delete is answered.
 */
export function useBulkDelete({ ns, selected, deleting, onDelete }: BulkDeleteOptions) {
  const { t } = useTranslation(ns);
  const [confirming, setConfirming] = useState(false);
  const count = selected.length;
  const close = () => setConfirming(false);
  const button = (
    <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
      {t('delete_selected')}
    </Button>
  );
  const dialog = (
    <ConfirmDialog
      opened={confirming}
      title={t('delete_title', { count })}
      body={t('delete_body', { count })}
      cancelLabel={t('cancel')}
      confirmLabel={t('delete')}
      loading={deleting}
      onCancel={close}
      onConfirm={() => onDelete(selected)}
    />
  );
  return { button, dialog, close };
}
