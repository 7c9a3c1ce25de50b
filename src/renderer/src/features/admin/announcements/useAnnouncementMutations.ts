import { useTranslation } from 'react-i18next';
import { adminAnnouncementsApi } from '../../../../../shared/api';
import { invalidateEndpoints, useEndpointMutation } from '../../../api/endpointHooks';
import { showToast } from '../../../components/toast';
import { useQueryClient } from '@tanstack/react-query';

/** Spec §5 names one failure message per action, whatever the failure. */
const failure = (key: 'announcement_create_failed' | 'announcement_update_failed') => ({ overrides: [{ key: `admin:toasts.${key}` as const }] });

/** Create, edit, switch and delete, each with its success and failure toast (spec §8). */
export function useAnnouncementMutations() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  // Also after a failure: another admin may have changed the list.
  const onSettled = () => invalidateEndpoints(queryClient, [adminAnnouncementsApi.listAdminAnnouncements]);

  const create = useEndpointMutation(adminAnnouncementsApi.createAnnouncement, {
    onSuccess: () => showToast('success', t('toasts.announcement_created_success')),
    errorToast: failure('announcement_create_failed'),
    onSettled,
  });
  const update = useEndpointMutation(adminAnnouncementsApi.patchAnnouncement, {
    onSuccess: () => showToast('success', t('toasts.announcement_updated_success')),
    errorToast: failure('announcement_update_failed'),
    onSettled,
  });
  const toggle = useEndpointMutation(adminAnnouncementsApi.patchAnnouncement, {
    onSuccess: (announcement) => showToast('success', t(announcement.is_active ? 'toasts.announcement_activated' : 'toasts.announcement_deactivated')),
    errorToast: failure('announcement_update_failed'),
    onSettled,
  });
  const remove = useEndpointMutation(adminAnnouncementsApi.deleteAnnouncement, {
    onSuccess: () => showToast('success', t('toasts.announcement_deleted_success')),
    // A missing id is spec §5's announcement_update_failed; any other failure the delete's own message.
    errorToast: {
      overrides: [
        { status: 404, code: 'announcement_update_failed', key: 'admin:toasts.announcement_update_failed' },
        { key: 'admin:toasts.announcement_delete_failed' },
      ],
    },
    onSettled,
  });
  return { create, update, toggle, remove };
}
