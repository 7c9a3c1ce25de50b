import { useQuery } from '@tanstack/react-query';
import { announcementsApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** The tenant's active announcement (public), or null when none is active. */
export function useActiveAnnouncement() {
  return useQuery({
    queryKey: queryKeys.activeAnnouncement,
    queryFn: async () => (await callEndpoint(announcementsApi.getActiveAnnouncement)).announcement,
  });
}
