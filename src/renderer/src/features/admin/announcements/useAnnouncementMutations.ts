import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../../../shared/api';
import { createAnnouncement, deleteAnnouncement, setAnnouncementActive, updateAnnouncementContent } from '../../../api/adminAnnouncements';
import { queryKeys } from '../../../api/queryKeys';
import { showToast } from '../../../components/toast';

/** Create, edit, switch and delete, each with its success and failure toast (spec §8). */
export function useAnnouncementMutations() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.adminAnnouncementsAll });
  const fail = (key: string) => () => showToast('error', t(key));

  const create = useMutation({
    mutationFn: ({ content, isActive }: { content: string; isActive: boolean }) => createAnnouncement(content, isActive),
    onSuccess: () => showToast('success', t('toasts.announcement_created_success')),
    onError: fail('toasts.announcement_create_failed'),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, content }: { id: number; content: string }) => updateAnnouncementContent(id, content),
    onSuccess: () => showToast('success', t('toasts.announcement_updated_success')),
    onError: fail('toasts.announcement_update_failed'),
    onSettled: refresh,
  });
  const toggle = useMutation({
    mutationFn: ({ id, isActive }: { id: number; isActive: boolean }) => setAnnouncementActive(id, isActive),
    onSuccess: (announcement) => showToast('success', t(announcement.is_active ? 'toasts.announcement_activated' : 'toasts.announcement_deactivated')),
    onError: fail('toasts.announcement_update_failed'),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteAnnouncement(id),
    onSuccess: () => showToast('success', t('toasts.announcement_deleted_success')),
    // A missing id is spec §5's announcement_update_failed; any other failure the delete's own message.
    onError: (error) => fail(isApiError(error) && error.body?.code === 'announcement_update_failed' ? 'toasts.announcement_update_failed' : 'toasts.announcement_delete_failed')(),
    onSettled: refresh,
  });
  return { create, update, toggle, remove };
}
