import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminAnnouncementsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export function useAdminAnnouncements(page: number, size: number) {
  return useQuery({
    queryKey: queryKeys.adminAnnouncements(page, size),
    queryFn: () => callEndpoint(adminAnnouncementsApi.listAdminAnnouncements, { query: { page, size } }),
    placeholderData: keepPreviousData,
  });
}

export const createAnnouncement = (content: string, isActive: boolean) =>
  callEndpoint(adminAnnouncementsApi.createAnnouncement, { body: { content, is_active: isActive } });

export const updateAnnouncementContent = (id: number, content: string) =>
  callEndpoint(adminAnnouncementsApi.patchAnnouncement, { params: { id }, body: { content } });

export const setAnnouncementActive = (id: number, isActive: boolean) =>
  callEndpoint(adminAnnouncementsApi.patchAnnouncement, { params: { id }, body: { is_active: isActive } });

export const deleteAnnouncement = (id: number) => callEndpoint(adminAnnouncementsApi.deleteAnnouncement, { params: { id } });
