import { Stack, Table, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminTaskModesApi, isApiError, taskModesApi, type AdminTaskMode } from '../../../../../shared/api';
import { localizedName, type BilingualName } from '../../../../../shared/domain/language';
import { errorMessageKey } from '../../../api/errorMessages';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { OtherName } from '../../../components/OtherName';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { BilingualNameInputs, takenName } from './BilingualNameInputs';
import { SettingsListCard } from '../SettingsCards';
import { messageText } from '../../../i18n/keys';

interface ModeValues extends BilingualName {
  instructions: string;
}

const NEW_MODE: ModeValues = { ko_name: '', en_name: '', instructions: '' };
const createSchema = bodySchemaOf(adminTaskModesApi.createTaskMode);

/** The name field a refusal is about, when it is one the admin fixes there. */
function nameError(error: unknown): 'ko_name' | 'en_name' | null {
  if (isApiError(error) && error.code === 'task_mode_name_taken') return takenName(error);
  if (isApiError(error) && error.code === 'task_mode_name_required') return 'ko_name';
  return null;
}

/** Create (no `mode`) or edit a task mode: its Korean and English names (one is enough) and its instructions. */
function ModeDialog({ mode, onClose }: { mode: AdminTaskMode | null; onClose: () => void }) {
  const { t } = useTranslation('tenantSettings');
  const queryClient = useQueryClient();
  const form = useForm<ModeValues>({
    mode: 'controlled',
    initialValues: mode ? { ko_name: mode.ko_name, en_name: mode.en_name, instructions: mode.instructions } : NEW_MODE,
    validate: zodResolver(createSchema),
  });
  const handlers = {
    invalidates: [adminTaskModesApi.listAdminTaskModes, taskModesApi.listTaskModes],
    // A name in use (or none left) is the admin's input to fix: said under the name, which keeps the focus.
    errorToast: { when: (error: unknown) => !nameError(error) },
    onSuccess: () => {
      showToast('success', t(mode ? 'modes.updated' : 'modes.created'));
      onClose();
    },
    onError: (error: unknown) => {
      const field = nameError(error);
      if (field) form.setFieldError(field, messageText(errorMessageKey(error, mode ? adminTaskModesApi.updateTaskMode : adminTaskModesApi.createTaskMode)));
      // Deleted meanwhile (another admin): the list shows what is left.
      if (isApiError(error) && error.status === 404) {
        void queryClient.invalidateQueries({ queryKey: endpointKey(adminTaskModesApi.listAdminTaskModes) });
        onClose();
      }
    },
  };
  const create = useEndpointMutation(adminTaskModesApi.createTaskMode, handlers);
  const update = useEndpointMutation(adminTaskModesApi.updateTaskMode, handlers);
  const save = (values: ModeValues) => {
    const body = { ko_name: values.ko_name.trim(), en_name: values.en_name.trim(), instructions: values.instructions.trim() };
    if (mode) update.mutate({ params: { id: mode.id }, body });
    else create.mutate({ body });
  };
  return (
    <form noValidate onSubmit={form.onSubmit(save, (errors) => focusFirstError(form, errors))}>
      <Stack gap="md">
        <BilingualNameInputs form={form} id="mode" />
        <Textarea
          label={t('modes.instructions')}
          description={t('modes.instructions_hint')}
          withAsterisk
          autosize
          minRows={3}
          maxRows={10}
          {...form.getInputProps('instructions')}
          error={formErrorText(form.errors.instructions)}
          data-testid="mode-instructions-input"
        />
        <FormDialogButtons cancelLabel={t('cancel')} onCancel={onClose} submitLabel={t('save')} saving={create.isPending || update.isPending} />
      </Stack>
    </form>
  );
}

/** The tenant's task modes (the composer's chooser): list, add, edit, delete. */
export function TaskModesCard() {
  const { t } = useTranslation('tenantSettings');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const modes = useEndpointQuery(adminTaskModesApi.listAdminTaskModes, {}, { errorToast: true });
  const nameOf = (mode: BilingualName) => localizedName(mode, language);
  const remove = useEndpointMutation(adminTaskModesApi.deleteTaskMode, {
    onSuccess: () => showToast('success', t('modes.deleted')),
    // Also after a failure: a 404 means another admin deleted it. Not awaited: the confirmation closes as soon as the delete is answered.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: endpointKey(taskModesApi.listTaskModes) });
      void queryClient.invalidateQueries({ queryKey: endpointKey(adminTaskModesApi.listAdminTaskModes) });
    },
  });

  return (
    <SettingsListCard
      id="task-modes-title"
      title={t('modes.title')}
      description={t('modes.description')}
      addLabel={t('modes.add')}
      addTestId="add-task-mode"
      emptyText={t('modes.empty')}
      query={{ isPending: modes.isPending, data: modes.data?.items }}
      table={{
        minWidth: 480,
        testId: 'task-modes',
        rowTestId: 'task-mode-row',
        actionsLabel: t('actions'),
        head: (
          <>
            <Table.Th miw={160}>{t('modes.name')}</Table.Th>
            <Table.Th>{t('modes.instructions')}</Table.Th>
          </>
        ),
      }}
      cells={(mode) => (
        <>
          <Table.Td style={{ overflowWrap: 'anywhere' }}>
            <Text size="sm">{nameOf(mode)}</Text>
            <OtherName named={mode} language={language} />
          </Table.Td>
          <Table.Td>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {mode.instructions}
            </Text>
          </Table.Td>
        </>
      )}
      actionLabels={(mode) => ({ edit: t('modes.edit', { name: nameOf(mode) }), delete: t('modes.delete', { name: nameOf(mode) }) })}
      editor={{ title: (isNew) => t(isNew ? 'modes.create_title' : 'modes.edit_title'), form: (mode, close) => <ModeDialog mode={mode} onClose={close} /> }}
      deletion={{
        title: (mode) => t('modes.delete_title', { name: mode ? nameOf(mode) : '' }),
        body: () => t('modes.delete_body'),
        cancelLabel: t('cancel'),
        confirmLabel: t('delete'),
        pending: remove.isPending,
        confirm: (mode, close) => remove.mutate({ params: { id: mode.id } }, { onSettled: close }),
      }}
    />
  );
}
