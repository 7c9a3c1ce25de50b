import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { Prompt } from '../../../../../shared/api';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { focusFirstError, formErrorText } from '../../../components/forms/zodResolver';

/** A value is what the member types in the message box: long text is fine, the box's own limits apply on send. */
const VALUE_MAX = 4000;

/**
 * Asks for each variable of `prompt` before its text goes into the message box: one field each, in
 * order of first use, all required. Enter inserts (Shift+Enter breaks the line), Escape cancels.
 */
export function PromptVariablesDialog({
  prompt,
  onCancel,
  onInsert,
}: {
  prompt: Prompt | null;
  onCancel: () => void;
  onInsert: (values: Record<string, string>) => void;
}) {
  const { t } = useTranslation('prompts');
  return (
    <Modal
      opened={prompt !== null}
      onClose={onCancel}
      returnFocus={false}
      title={t('fill.title', { name: prompt?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {prompt && <VariablesForm key={prompt.id} prompt={prompt} onCancel={onCancel} onInsert={onInsert} />}
    </Modal>
  );
}

function VariablesForm({ prompt, onCancel, onInsert }: { prompt: Prompt; onCancel: () => void; onInsert: (values: Record<string, string>) => void }) {
  const { t } = useTranslation('prompts');
  const form = useForm<Record<string, string>>({
    mode: 'controlled',
    initialValues: Object.fromEntries(prompt.variables.map((name) => [name, ''])),
    validate: Object.fromEntries(prompt.variables.map((name) => [name, (value: string) => (value.trim() === '' ? 'prompts:validation.value_required' : null)])),
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(
        (values) => onInsert(values),
        (errors) => focusFirstError(form, errors),
      )}
      data-testid="prompt-variables"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('fill.hint')}
        </Text>
        {prompt.variables.map((name, index) => (
          <Textarea
            key={name}
            label={name}
            required
            autosize
            minRows={1}
            maxRows={4}
            maxLength={VALUE_MAX}
            data-autofocus={index === 0 || undefined}
            {...form.getInputProps(name)}
            error={formErrorText(form.errors[name])}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229) return;
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }}
          />
        ))}
        <FormDialogButtons gap="md" mt="xs" cancelLabel={t('cancel')} onCancel={onCancel} submitLabel={t('fill.insert')} saving={false} />
      </Stack>
    </form>
  );
}
