import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { CHATBOT_LIMITS } from '../../../../shared/domain/chatbots';

interface CreateChatbotDialogProps {
  opened: boolean;
  creating: boolean;
  onCreate: (name: string) => void;
  onClose: () => void;
}

/**
 * "Create chatbot" asks for a name first, so nothing is saved until the member means it: Cancel
 * leaves no draft behind (docs/decisions/0022-chatbot-named-before-created.md).
 */
export function CreateChatbotDialog({ opened, creating, onCreate, onClose }: CreateChatbotDialogProps) {
  const { t } = useTranslation(['studio', 'common']);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '' },
    validate: {
      name: (value) => {
        if (value.trim() === '') return t('common:validation.required');
        return value.trim().length > CHATBOT_LIMITS.nameMax ? t('common:validation.too_long') : null;
      },
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t('create_dialog.title')}>
      <form noValidate onSubmit={form.onSubmit((values) => onCreate(values.name.trim()))}>
        <Stack gap="sm">
          <TextInput
            label={t('create_dialog.name')}
            description={t('create_dialog.name_hint')}
            required
            data-autofocus
            data-testid="new-chatbot-name"
            {...form.getInputProps('name')}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={creating} data-testid="confirm-create-chatbot">
              {t('create_dialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
