import { ActionIcon, FileButton, Tooltip } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { sessionTransferApi, sessionsApi, type SessionExport } from '../../../../shared/api';
import { SESSION_IMPORT_MAX_BYTES } from '../../../../shared/domain/sessionTransfer';
import { useEndpointMutation } from '../../api/endpointHooks';
import { IconUpload } from '../../components/icons';
import { showToast } from '../../components/toast';

/**
 * My chats' Import button: a chat exported as JSON becomes a new chat of the member, with the
 * chatbot it names when the member may chat with it (the server's refusals arrive as toasts), and opens.
 */
export function ImportSessionButton() {
  const { t } = useTranslation('chatExport');
  const navigate = useNavigate();
  const importing = useEndpointMutation(sessionTransferApi.importSession, {
    invalidates: [sessionsApi.listSessions],
    onSuccess: (session) => {
      showToast('success', t('import.done'));
      void navigate(`/dashboard/chat/${session.chatbot_id}/${session.hash_id}`);
    },
  });
  const choose = async (file: File | null) => {
    if (!file) return;
    if (file.size > SESSION_IMPORT_MAX_BYTES) return showToast('error', t('import.too_large'));
    let document: unknown;
    try {
      document = JSON.parse(await file.text());
    } catch {
      return showToast('error', t('import.not_export'));
    }
    // The server checks the document against the contract (and answers what is wrong with it).
    importing.mutate({ body: document as SessionExport });
  };
  return (
    <FileButton onChange={(file) => void choose(file)} accept="application/json,.json">
      {(props) => (
        <Tooltip label={t('import.button')}>
          <ActionIcon {...props} variant="subtle" color="gray" aria-label={t('import.button')} loading={importing.isPending} data-testid="import-session">
            <IconUpload size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </FileButton>
  );
}
