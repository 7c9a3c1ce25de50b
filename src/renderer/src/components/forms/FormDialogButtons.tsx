import { Button, Group, type GroupProps } from '@mantine/core';

interface FormDialogButtonsProps extends Omit<GroupProps, 'children'> {
  cancelLabel: string;
  onCancel: () => void;
  submitLabel: string;
  /** The save is running: the submit button spins. */
  saving: boolean;
  /** Something the form waits for (an upload) is still running. */
  disabled?: boolean;
}

/** The end of a form in a dialog: Cancel, then the submit button. */
export function FormDialogButtons({ cancelLabel, onCancel, submitLabel, saving, disabled, gap = 'sm', ...group }: FormDialogButtonsProps) {
  return (
    <Group justify="flex-end" gap={gap} {...group}>
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" loading={saving} disabled={disabled}>
        {submitLabel}
      </Button>
    </Group>
  );
}
