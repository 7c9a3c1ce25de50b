import { tasksApi } from '../../../../../shared/api';
import { useEndpointQuery } from '../../../api/endpointHooks';

/** How often a running task is read again. */
const TASK_POLL_MS = 1000;

/** A background task (member export or upload), read again every second while it runs. */
export function useTask(taskId: number | null) {
  return useEndpointQuery(
    tasksApi.getTask,
    { params: { id: taskId ?? 0 } },
    { enabled: taskId !== null, refetchInterval: (query) => (query.state.data?.status === 'running' || !query.state.data ? TASK_POLL_MS : false) },
  );
}
