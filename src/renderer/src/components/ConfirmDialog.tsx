import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';

interface ConfirmDialogProps {
  opened: boolean;
  title: ReactNode;
  body: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  loading?: boolean;
  /**
   * Runs once the dialog has closed and handed focus back. A confirmed deletion removes the
   * button that opened the dialog, so the caller moves focus somewhere sensible here.
   */
  onClosed?: () => void;
  /** The action undoes a destructive one (e.g. reactivating a member): the confirm button is not red. */
  restoring?: boolean;
}

/**
 * A destructive action asked once more: title, message, Cancel and a red confirm button. It opens
 * with focus on Cancel, the safe choice, so Enter never destroys anything by accident.
 */
export function ConfirmDialog({
  opened,
  title,
  body,
  cancelLabel,
  confirmLabel,
  onCancel,
  onConfirm,
  loading,
  onClosed,
  restoring = false,
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      onExitTransitionEnd={onClosed}
      title={
        <Text fw={650} lineClamp={2}>
          {title}
        </Text>
      }
      size="sm"
    >
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {body}
      </Text>
      <Group justify="flex-end" mt="xl" gap="sm">
        <Button variant="default" onClick={onCancel} data-autofocus>
          {cancelLabel}
        </Button>
        <Button color={restoring ? undefined : 'red'} onClick={onConfirm} loading={loading}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
