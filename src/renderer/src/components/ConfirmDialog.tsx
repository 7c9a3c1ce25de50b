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
}

/** A destructive action asked once more: title, message, Cancel and a red confirm button. */
export function ConfirmDialog({ opened, title, body, cancelLabel, confirmLabel, onCancel, onConfirm, loading }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={<Text fw={650} lineClamp={2}>{title}</Text>} size="sm">
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {body}
      </Text>
      <Group justify="flex-end" mt="xl" gap="sm">
        <Button variant="default" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
