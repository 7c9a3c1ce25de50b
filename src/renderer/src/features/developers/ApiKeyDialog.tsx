import { Button, Group, Modal, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiKeysApi, type ApiKey, type CreateApiKeyBody } from '../../../../shared/api';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { API_KEY_CHATBOTS_MAX, API_KEY_NAME_MAX } from '../../../../shared/domain/apiKeys';
import { useKeyChatbotChoices } from './useKeyChatbotChoices';
import { focusFirstError, formErrorText, zodResolver } from '../../components/forms/zodResolver';
import { useResolvedLanguage } from '../../i18n/useLanguage';

/** `YYYY-MM-DD` of a date in the browser's time zone (what a date input shows). */
export function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A key chosen to expire on a day works until the end of that day, in the member's time zone. */
export const expiryOfDay = (day: string): string | null => (day ? new Date(`${day}T23:59:59.999`).toISOString() : null);

const { name } = apiKeysApi.createApiKeyBodySchema.shape;

/** The contract's rules on the form's values (chatbots as the select's strings, expiry as a day). */
const formSchema = z.object({
  name,
  chatbot_ids: z.array(z.string()).min(1, 'developers:validation.chatbots_required').max(API_KEY_CHATBOTS_MAX),
  expires_on: z.string().refine((day) => day === '' || day > localDay(new Date()), 'developers:validation.expiry_future'),
});
type FormValues = z.input<typeof formSchema>;

interface ApiKeyDialogProps {
  /** null: closed; 'create': a new key; a key: edit it. */
  target: 'create' | ApiKey | null;
  saving: boolean;
  onClose: () => void;
  onSubmit: (body: CreateApiKeyBody) => void;
}

function KeyForm({ target, saving, onClose, onSubmit }: Omit<ApiKeyDialogProps, 'target'> & { target: 'create' | ApiKey }) {
  const { t } = useTranslation('developers');
  const language = useResolvedLanguage();
  const choices = useKeyChatbotChoices();
  const editing = target === 'create' ? null : target;
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      name: editing?.name ?? '',
      chatbot_ids: editing?.chatbots.map((chatbot) => String(chatbot.id)) ?? [],
      expires_on: editing?.expires_at ? localDay(new Date(editing.expires_at)) : '',
    },
    validate: zodResolver(formSchema),
  });
  const data = [...(choices.data?.items ?? []), ...(editing?.chatbots ?? [])]
    .filter((chatbot, index, all) => all.findIndex((other) => other.id === chatbot.id) === index)
    .map((chatbot) => ({ value: String(chatbot.id), label: chatbotName(chatbot, language) || t('untitled') }));
  const errorText = (path: keyof FormValues) => formErrorText(form.errors[path]);

  return (
    <form
      noValidate
      onSubmit={form.onSubmit(
        (values) => onSubmit({ name: values.name.trim(), chatbot_ids: values.chatbot_ids.map(Number), expires_at: expiryOfDay(values.expires_on) }),
        (errors) => focusFirstError(form, errors),
      )}
    >
      <Stack gap="md">
        <TextInput
          label={t('form.name')}
          description={t('form.name_hint')}
          required
          maxLength={API_KEY_NAME_MAX}
          data-autofocus
          {...form.getInputProps('name')}
          error={errorText('name')}
          data-testid="key-name"
        />
        <MultiSelect
          label={t('form.chatbots')}
          description={t('form.chatbots_hint')}
          required
          searchable
          data={data}
          nothingFoundMessage={choices.isPending ? t('loading') : t('form.no_chatbots')}
          {...form.getInputProps('chatbot_ids')}
          error={errorText('chatbot_ids')}
          data-testid="key-chatbots"
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          type="date"
          label={t('form.expiry')}
          description={t('form.expiry_hint')}
          min={localDay(new Date(Date.now() + 86_400_000))}
          {...form.getInputProps('expires_on')}
          error={errorText('expires_on')}
          data-testid="key-expiry"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={saving} data-testid="save-key">
            {editing ? t('save') : t('create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Create or edit a key: name, chatbots (those the member sees) and an optional expiry day. */
export function ApiKeyDialog(props: ApiKeyDialogProps) {
  const { t } = useTranslation('developers');
  const { target, onClose } = props;
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={target === 'create' ? t('create_title') : t('edit_title')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {target && <KeyForm {...props} target={target} key={target === 'create' ? 'create' : target.id} />}
    </Modal>
  );
}
