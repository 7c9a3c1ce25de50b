import { useState } from 'react';
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { Endpoint } from '../../../../shared/api/endpoint';
import type { CallOptions } from '../../api/client';
import { useEndpointMutation } from '../../api/endpointHooks';
import { ConfirmDialog } from '../ConfirmDialog';
import type { NamespaceWith } from '../../i18n/keys';
import { showToast } from '../toast';
import { BulkActions } from './ListParts';

/** A bulk delete endpoint: it answers how many rows it deleted. */
type BulkDeleteEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType, z.ZodType<{ deleted: number }>>;

interface BulkDeleteOptions<E extends BulkDeleteEndpoint> {
  /** The namespace of its texts: selected, delete_selected, delete_title and delete_body (with a count), cancel, delete, deleted (with a count). */
  ns: NamespaceWith<'selected' | 'delete_selected' | 'delete_title' | 'delete_body' | 'cancel' | 'delete' | 'deleted'>;
  selected: number[];
  endpoint: E;
  /** The call that deletes these ids. */
  toInput: (ids: number[]) => CallOptions<E>;
  /** Once the delete is answered, deleted or not: empty the selection and refresh the list. */
  onSettled: () => unknown;
}

/**
 * Deleting the selected rows after a confirmation, with a toast of how many went: `actions` is the
 * list's `BulkActions` ("n selected" and the delete button), `dialog` goes outside them (so it
 * closes with its transition when the selection empties).
 */
export function useBulkDelete<E extends BulkDeleteEndpoint>({ ns, selected, endpoint, toInput, onSettled }: BulkDeleteOptions<E>) {
  const { t } = useTranslation(ns);
  const [confirming, setConfirming] = useState(false);
  const count = selected.length;
  const close = () => setConfirming(false);
  const remove = useEndpointMutation<E, number[], { deleted: number }>(endpoint, {
    toInput,
    onSuccess: (result) => showToast('success', t('deleted', { count: result.deleted })),
    onSettled: () => {
      close();
      return onSettled();
    },
  });
  const actions = (
    <BulkActions count={count} label={t('selected', { count })}>
      <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
        {t('delete_selected')}
      </Button>
    </BulkActions>
  );
  const dialog = (
    <ConfirmDialog
      opened={confirming}
      title={t('delete_title', { count })}
      body={t('delete_body', { count })}
      cancelLabel={t('cancel')}
      confirmLabel={t('delete')}
      loading={remove.isPending}
      onCancel={close}
      onConfirm={() => remove.mutate(selected)}
    />
  );
  return { actions, dialog };
}
