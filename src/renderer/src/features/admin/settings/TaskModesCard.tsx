import { useState } from 'react';
import { Button, Group, Modal, Stack, Table, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminTaskModesApi, isApiError, type AdminTaskMode } from '../../../../../shared/api';
import { localizedName, type BilingualName } from '../../../../../shared/domain/language';
import { errorMessageKey } from '../../../api/errorMessages';
import { queryKeys } from '../../../api/queryKeys';
import { createTaskMode, deleteTaskMode, updateTaskMode, useAdminTaskModes } from '../../../api/tenantSettings';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { OtherName } from '../../../components/OtherName';
import { bodySchemaOf, focusFirstError, zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';
import { useErrorToast } from '../../../components/useErrorToast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { BilingualNameInputs, takenName } from './BilingualNameInputs';
import { RowActions, SettingsListCard } from './SettingsListCard';

interface ModeValues extends BilingualName {
  instructions: string;
}

const NEW_MODE: ModeValues = { ko_name: '', en_name: '', instructions: '' };
const createSchema = bodySchemaOf(adminTaskModesApi.createTaskMode);

/** Create (no `mode`) or edit a task mode: its Korean and English names (one is enough) and its instructions. */
function ModeDialog({ mode, onClose }: { mode: AdminTaskMode | null; onClose: () => void }) {
  const { t } = useTranslation('tenantSettings');
  const queryClient = useQueryClient();
  const form = useForm<ModeValues>({
    mode: 'controlled',
    initialValues: mode ? { ko_name: mode.ko_name, en_name: mode.en_name, instructions: mode.instructions } : NEW_MODE,
    validate: zodResolver(createSchema),
  });
  const endpoint = mode ? adminTaskModesApi.updateTaskMode : adminTaskModesApi.createTaskMode;
  const save = useMutation({
    mutationFn: (values: ModeValues) => {
      const body = { ko_name: values.ko_name.trim(), en_name: values.en_name.trim(), instructions: values.instructions.trim() };
      return mode ? updateTaskMode(mode.id, body) : createTaskMode(body);
    },
    onSuccess: () => {
      showToast('success', t(mode ? 'modes.updated' : 'modes.created'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminTaskModes });
      void queryClient.invalidateQueries({ queryKey: queryKeys.taskModes });
      onClose();
    },
    onError: (error) => {
      const message = t(errorMessageKey(error, endpoint));
      // A name in use (or none left) is the admin's input to fix: said under the name, which keeps the focus.
      if (isApiError(error) && error.code === 'task_mode_name_taken') form.setFieldError(takenName(error), message);
      else if (isApiError(error) && error.code === 'task_mode_name_required') form.setFieldError('ko_name', message);
      else showToast('error', message);
      // Deleted meanwhile (another admin): the list shows what is left.
      if (isApiError(error) && error.status === 404) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.adminTaskModes });
        onClose();
      }
    },
  });
  const instructionsError = form.errors.instructions;
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate(values), (errors) => focusFirstError(form, errors))}>
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
          error={instructionsError && (String(instructionsError).startsWith('validation.') ? t(`common:${String(instructionsError)}`) : instructionsError)}
          data-testid="mode-instructions-input"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The tenant's task modes (the composer's chooser): list, add, edit, delete. */
export function TaskModesCard() {
  const { t } = useTranslation('tenantSettings');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const modes = useAdminTaskModes();
  useErrorToast(modes.error, adminTaskModesApi.listAdminTaskModes);
  // null: closed; 'new': the create dialog; a mode: its edit dialog.
  const [editing, setEditing] = useState<AdminTaskMode | 'new' | null>(null);
  const [pendingDelete, setPendingDelete] = useState<AdminTaskMode | null>(null);
  const nameOf = (mode: BilingualName) => localizedName(mode, language);
  const remove = useMutation({
    mutationFn: (id: number) => deleteTaskMode(id),
    onSuccess: () => showToast('success', t('modes.deleted')),
    onError: (error) => showToast('error', t(errorMessageKey(error, adminTaskModesApi.deleteTaskMode))),
    onSettled: () => {
      setPendingDelete(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.taskModes });
      return queryClient.invalidateQueries({ queryKey: queryKeys.adminTaskModes });
    },
  });

  const items = modes.data ?? [];
  return (
    <>
      <SettingsListCard
        id="task-modes-title"
        title={t('modes.title')}
        description={t('modes.description')}
        addLabel={t('modes.add')}
        addTestId="add-task-mode"
        onAdd={() => setEditing('new')}
        pending={modes.isPending}
        empty={items.length === 0}
        emptyText={t('modes.empty')}
      >
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs" data-testid="task-modes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th miw={160}>{t('modes.name')}</Table.Th>
                <Table.Th>{t('modes.instructions')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((mode) => (
                <Table.Tr key={mode.id} data-testid="task-mode-row">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="sm">{nameOf(mode)}</Text>
                    <OtherName named={mode} language={language} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {mode.instructions}
                    </Text>
                  </Table.Td>
                  <RowActions
                    editLabel={t('modes.edit', { name: nameOf(mode) })}
                    deleteLabel={t('modes.delete', { name: nameOf(mode) })}
                    onEdit={() => setEditing(mode)}
                    onDelete={() => setPendingDelete(mode)}
                  />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </SettingsListCard>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing === 'new' ? 'modes.create_title' : 'modes.edit_title')}>
        {editing !== null && <ModeDialog mode={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      </Modal>
      <ConfirmDialog
        opened={pendingDelete !== null}
        title={t('modes.delete_title', { name: pendingDelete ? nameOf(pendingDelete) : '' })}
        body={t('modes.delete_body')}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && remove.mutate(pendingDelete.id)}
      />
    </>
  );
}
