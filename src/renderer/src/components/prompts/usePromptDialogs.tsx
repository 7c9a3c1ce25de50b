import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminPromptsApi, promptsApi, type Prompt } from '../../../../shared/api';
import { invalidateEndpoints, useEndpointMutation } from '../../api/endpointHooks';
import { ConfirmDialog } from '../ConfirmDialog';
import { showToast } from '../toast';
import { PromptEditorDialog, type PromptScopeEndpoints } from './PromptEditorDialog';

type Dialog = { kind: 'edit'; prompt: Prompt | null } | { kind: 'delete'; prompt: Prompt };

/** Both lists a change shows in: the console's and the member's (the `/` menu and My page). */
const PROMPT_LISTS = [adminPromptsApi.listAdminPrompts, promptsApi.listPrompts];

/**
 * The add/edit dialog and the delete confirmation of a list of prompts (the console's tenant
 * prompts, My page's own): `edit(null)` adds one. The lists are fetched again after either.
 */
export function usePromptDialogs(scope: PromptScopeEndpoints): {
  edit: (prompt: Prompt | null) => void;
  confirmDelete: (prompt: Prompt) => void;
  dialogs: ReactNode;
} {
  const { t } = useTranslation('prompts');
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const refresh = () => invalidateEndpoints(queryClient, PROMPT_LISTS);
  const removed = {
    onSuccess: () => showToast('success', t('deleted')),
    onSettled: () => {
      close();
      return refresh();
    },
  };
  const removeTenant = useEndpointMutation(adminPromptsApi.deleteAdminPrompt, removed);
  const removeOwn = useEndpointMutation(promptsApi.deletePrompt, removed);
  const remove = scope === 'tenant' ? removeTenant : removeOwn;
  const current = dialog?.prompt ?? null;
  const dialogs = (
    <>
      <PromptEditorDialog
        key={dialog?.kind === 'edit' ? `edit-${current?.id ?? 'new'}` : 'edit-closed'}
        scope={scope}
        prompt={dialog?.kind === 'edit' ? current : null}
        opened={dialog?.kind === 'edit'}
        onClose={close}
        onSaved={() => void refresh()}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('delete_title', { name: current?.name ?? '' })}
        body={t(scope === 'tenant' ? 'delete_body_tenant' : 'delete_body_own')}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={close}
        onConfirm={() => current && remove.mutate({ params: { id: current.id } })}
      />
    </>
  );
  return { edit: (prompt) => setDialog({ kind: 'edit', prompt }), confirmDelete: (prompt) => setDialog({ kind: 'delete', prompt }), dialogs };
}
