import { useQuery } from '@tanstack/react-query';
import { adminMemberTransferApi, buildPath, tasksApi } from '../../../shared/api';
import type { MemberFileFormat } from '../../../shared/domain/memberTransfer';
import { callEndpoint, sendRaw } from './client';
import { queryKeys } from './queryKeys';

/** How often a running task is read again. */
const TASK_POLL_MS = 1000;

/** Member export and bulk upload (admin console; ARCHITECTURE "Member export and bulk upload"). */
export const startMemberExport = (format: MemberFileFormat) => callEndpoint(adminMemberTransferApi.startMemberExport, { query: { format } });

/** A background task, read again every second while it runs. */
export function useTask(taskId: number | null) {
  return useQuery({
    queryKey: queryKeys.task(taskId ?? 0),
    queryFn: () => callEndpoint(tasksApi.getTask, { params: { id: taskId! } }),
    enabled: taskId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'running' || !query.state.data ? TASK_POLL_MS : false),
  });
}

export async function downloadMemberExport(taskId: number): Promise<Blob> {
  const endpoint = adminMemberTransferApi.downloadMemberExport;
  return (await sendRaw(endpoint, buildPath(endpoint.path, { id: taskId }))).blob();
}

export async function downloadUploadTemplate(format: MemberFileFormat): Promise<Blob> {
  const endpoint = adminMemberTransferApi.downloadMemberUploadTemplate;
  return (await sendRaw(endpoint, `${endpoint.path}?format=${format}`)).blob();
}

/** Sends the file (at most a few MB: no transfer progress) and returns the upload task. */
export async function uploadMemberFile(file: File) {
  const endpoint = adminMemberTransferApi.uploadMembers;
  const form = new FormData();
  form.append(adminMemberTransferApi.MEMBER_UPLOAD_FIELD, file, file.name);
  const response = await sendRaw(endpoint, endpoint.path, { body: form });
  return endpoint.response.parse(await response.json());
}
