import { Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { adminPromptsApi, isApiError, promptsApi, type ApiError, type Prompt, type PromptBody } from '../../../../shared/api';
import { PROMPT_NAME_MAX, PROMPT_TEXT_MAX, PROMPT_VARIABLES_MAX, PROMPT_VARIABLE_NAME_MAX } from '../../../../shared/domain/prompts';
import { useEndpointMutation } from '../../api/endpointHooks';
import { errorMessageKey } from '../../api/errorMessages';
import { messageText } from '../../i18n/keys';
import { FormDialogButtons } from '../forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../forms/zodResolver';
import { showToast } from '../toast';

/** The values the rule messages of the `prompts` namespace name. */
export const PROMPT_RULE_VALUES = {
  example: '{{topic}}',
  name_max: PROMPT_NAME_MAX,
  text_max: PROMPT_TEXT_MAX,
  variable_max: PROMPT_VARIABLE_NAME_MAX,
  variables_max: PROMPT_VARIABLES_MAX,
};

const isNameTaken = (error: unknown): error is ApiError => isApiError(error) && error.status === 409;

/** Which prompts a dialog writes: the tenant's (admin console) or the member's own (My page). */
export type PromptScopeEndpoints = 'tenant' | 'personal';
const ENDPOINTS = {
  tenant: { create: adminPromptsApi.createAdminPrompt, patch: adminPromptsApi.patchAdminPrompt },
  personal: { create: promptsApi.createPrompt, patch: promptsApi.patchPrompt },
} as const;

/**
 * Add a prompt or edit one (`prompt`), checked by the contract's schema before it is sent. A name
 * in use is said under the name field; other refusals (the limit, 403) in a toast.
 */
export function PromptEditorDialog({
  scope,
  prompt,
  opened,
  onClose,
  onSaved,
}: {
  scope: PromptScopeEndpoints;
  prompt: Prompt | null;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('prompts');
  const endpoints = ENDPOINTS[scope];
  const form = useForm<PromptBody>({
    mode: 'controlled',
    initialValues: { name: prompt?.name ?? '', text: prompt?.text ?? '' },
    validate: zodResolver(bodySchemaOf(promptsApi.createPrompt)),
  });
  const handlers = {
    errorToast: { when: (error: unknown) => !isNameTaken(error) },
    onSuccess: () => {
      showToast('success', t(prompt ? 'saved' : 'created'));
      onSaved();
      onClose();
    },
    onError: (error: unknown) => {
      if (isNameTaken(error)) form.setFieldError('name', messageText(errorMessageKey(error, prompt ? endpoints.patch : endpoints.create)));
    },
  };
  const create = useEndpointMutation(endpoints.create, handlers);
  const patch = useEndpointMutation(endpoints.patch, handlers);
  const save = (values: PromptBody) => {
    const body = { name: values.name.trim(), text: values.text.trim() };
    if (prompt) patch.mutate({ params: { id: prompt.id }, body });
    else create.mutate({ body });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t(prompt ? 'edit_title' : 'create_title')} size="lg" closeButtonProps={{ 'aria-label': t('close') }}>
      <form noValidate onSubmit={form.onSubmit(save, (errors) => focusFirstError(form, errors))}>
        <Stack gap="sm">
          <TextInput
            label={t('name')}
            description={t('name_hint', PROMPT_RULE_VALUES)}
            required
            maxLength={PROMPT_NAME_MAX}
            data-autofocus
            data-testid="prompt-name"
            {...form.getInputProps('name')}
            error={formErrorText(form.errors.name, PROMPT_RULE_VALUES)}
          />
          <Textarea
            label={t('text')}
            description={t('text_hint', PROMPT_RULE_VALUES)}
            required
            autosize
            minRows={4}
            maxRows={12}
            data-testid="prompt-text"
            {...form.getInputProps('text')}
            error={formErrorText(form.errors.text, PROMPT_RULE_VALUES)}
          />
          <Text size="xs" c="dimmed" ta="right" aria-live="off">
            {t('text_count', { count: form.values.text.length, max: PROMPT_TEXT_MAX })}
          </Text>
          <FormDialogButtons
            gap="md"
            cancelLabel={t('cancel')}
            onCancel={onClose}
            submitLabel={t(prompt ? 'save' : 'create')}
            saving={create.isPending || patch.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
