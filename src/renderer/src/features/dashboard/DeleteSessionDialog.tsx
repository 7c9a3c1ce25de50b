import { useTranslation } from 'react-i18next';
import type { Session } from '../../../../shared/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';

interface DeleteSessionDialogProps {
  session: Session | null;
  onClose: () => void;
  onDelete: (session: Session) => void;
  onClosed?: () => void;
}

/** Header and body name the session title; Cancel or Delete (spec §2). */
export function DeleteSessionDialog({ session, onClose, onDelete, onClosed }: DeleteSessionDialogProps) {
  const { t } = useTranslation('dashboard');
  const title = session?.title || t('untitled');
  return (
    <ConfirmDialog
      opened={session !== null}
      title={t('delete_session.title', { title })}
      body={t('delete_session.body', { title })}
      cancelLabel={t('delete_session.cancel')}
      confirmLabel={t('delete_session.confirm')}
      onCancel={onClose}
      onClosed={onClosed}
      onConfirm={() => {
        if (session) onDelete(session);
        onClose();
      }}
    />
  );
}
