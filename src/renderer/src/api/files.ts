import { filesApi, type ChatFile, type FileProgress } from '../../../shared/api';
import type { Endpoint, EndpointResponse } from '../../../shared/api/endpoint';
import { API_PREFIX } from '../../../shared/domain/http';
import { callEndpoint, sendRaw } from './client';
import type { TransferProgress } from '../platform/types';

/** Share of a transfer done, 0–100; unknown totals count as not started. */
export const transferPercentage = ({ loaded, total }: TransferProgress) => (total ? Math.min(100, Math.floor((loaded / total) * 100)) : 0);

/** Uploads files for the next message (`attached` are the ids already attached, for the server's per-message cap). */
export async function uploadChatFiles(
  files: readonly File[],
  options: { chatbotId: number; attached: readonly number[]; onProgress?: (percentage: number) => void; signal?: AbortSignal },
): Promise<ChatFile[]> {
  const form = new FormData();
  form.append('chatbot_id', String(options.chatbotId));
  if (options.attached.length > 0) form.append('attached_file_ids', options.attached.join(','));
  for (const file of files) form.append(filesApi.UPLOAD_FIELD, file, file.name);
  const { onProgress } = options;
  const response = await sendRaw(filesApi.uploadFiles, filesApi.uploadFiles.path, {
    body: form,
    signal: options.signal,
    onProgress: onProgress && ((progress) => progress.direction === 'upload' && onProgress(transferPercentage(progress))),
  });
  return filesApi.uploadFiles.response.parse(await response.json()).items;
}

/** Uploads one file as the multipart body an upload endpoint takes (the field chat files use too); resolves with its parsed answer. */
export async function uploadFile<E extends Endpoint>(endpoint: E, file: File): Promise<EndpointResponse<E>> {
  const form = new FormData();
  form.append(filesApi.UPLOAD_FIELD, file, file.name);
  const response = await sendRaw(endpoint, endpoint.path, { body: form });
  return endpoint.response.parse(await response.json()) as EndpointResponse<E>;
}

export async function getFileProgress(ids: readonly number[]): Promise<FileProgress[]> {
  return (await callEndpoint(filesApi.getFileProgress, { query: { file_ids: ids.join(',') } })).items;
}

export function deleteChatFile(id: number) {
  return callEndpoint(filesApi.deleteFile, { params: { id } });
}

/**
 * A file's bytes, fetched with the caller's credentials (the web cookie/token or, on desktop,
 * through main): a plain link or <img src> would carry neither. `url` is the one the server gave:
 * the member's own path, or a shared session's public path, which a signed-out visitor reads with
 * the token value `public`.
 */
export async function fetchFileBlob(url: string, onProgress?: (percentage: number) => void): Promise<Blob> {
  const path = url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url;
  // The endpoint names the call in failure reports; the path is the server's, as it gave it.
  const endpoint = path.startsWith('/public/sessions/') ? filesApi.getSharedSessionFile : filesApi.getFile;
  const response = await sendRaw(endpoint, path, {
    onProgress: onProgress && ((progress) => progress.direction === 'download' && onProgress(transferPercentage(progress))),
  });
  return response.blob();
}
