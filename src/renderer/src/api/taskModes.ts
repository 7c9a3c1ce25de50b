import { useQuery } from '@tanstack/react-query';
import { taskModesApi } from '../../../shared/api';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

/** The tenant's task modes for the composer's chooser; they rarely change, so kept for a while. */
export function useTaskModes() {
  return useQuery({
    queryKey: queryKeys.taskModes,
    queryFn: () => callEndpoint(taskModesApi.listTaskModes),
    staleTime: 5 * 60_000,
  });
}
