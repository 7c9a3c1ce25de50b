import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminChatbotsApi } from '../../../../../shared/api';
import type { NamespaceWith } from '../../../i18n/keys';

interface RejectDialogProps {
  count: number;
  opened: boolean;
  busy: boolean;
  onClose: () => void;
  onReject: (reason: string) => void;
  /** The namespace of its texts (reject_title, reject_hint, reason, reason_required, cancel, reject, close). */
  ns?: NamespaceWith<'reject_title' | 'reject_hint' | 'reason' | 'reason_required' | 'cancel' | 'reject' | 'close'>;
}

/** Rejecting needs a reason for the requester (spec §5), mailed to them: chatbot publishing and member requests. */
function RejectDialog({ count, opened, busy, onClose, onReject, ns = 'publishing' }: RejectDialogProps) {
  const { t } = useTranslation(ns);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (reason.trim() === '') {
      setError(t('reason_required'));
      return;
    }
    onReject(reason.trim());
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('reject_title', { count })} closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack gap="sm">
        <Text size="sm">{t('reject_hint')}</Text>
        <Textarea
          label={t('reason')}
          required
          autosize
          minRows={3}
          maxLength={adminChatbotsApi.REJECTION_REASON_MAX}
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
          data-testid="reject-reason"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={submit} data-testid="confirm-reject">
            {t('reject')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Rejecting one request or a selection: `open(ids)` asks for the reason, `dialog` is the element to
 * render, `close()` ends it once the decision went through. Each opening starts with an empty reason.
 */
export function useRejectDialog({ ns, busy, onReject }: { ns?: RejectDialogProps['ns']; busy: boolean; onReject: (ids: number[], reason: string) => void }) {
  const [ids, setIds] = useState<number[] | null>(null);
  const close = () => setIds(null);
  const dialog = (
    <RejectDialog
      ns={ns}
      key={ids?.join(',') ?? 'closed'}
      count={ids?.length ?? 0}
      opened={ids !== null}
      busy={busy}
      onClose={close}
      onReject={(reason) => ids && onReject(ids, reason)}
    />
  );
  return { open: setIds, close, dialog };
}
