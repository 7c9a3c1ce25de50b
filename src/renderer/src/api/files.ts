import { buildPath, filesApi, type ChatFile, type FileProgress } from '../../../shared/api';
import { API_PREFIX } from '../../../shared/domain/http';
import { callEndpoint, sendRaw } from './client';

/** Uploads files for the next message (`attached` are the ids already attached, for the server's per-message cap). */
export async function uploadChatFiles(files: readonly File[], options: { chatbotId: number; attached: readonly number[] }): Promise<ChatFile[]> {
  const form = new FormData();
  form.append('chatbot_id', String(options.chatbotId));
  if (options.attached.length > 0) form.append('attached_file_ids', options.attached.join(','));
  for (const file of files) form.append(filesApi.UPLOAD_FIELD, file, file.name);
  const response = await sendRaw(filesApi.uploadFiles, filesApi.uploadFiles.path, form);
  return filesApi.uploadFiles.response.parse(await response.json()).items;
}

export async function getFileProgress(ids: readonly number[]): Promise<FileProgress[]> {
  return (await callEndpoint(filesApi.getFileProgress, { query: { file_ids: ids.join(',') } })).items;
}

export function deleteChatFile(id: number) {
  return callEndpoint(filesApi.deleteFile, { params: { id } });
}

/**
 * A file's bytes, fetched with the member's credentials (the web cookie/token or, on desktop,
 * through main): a plain link or <img src> would carry neither. `url` is the one the server gave.
 */
export async function fetchFileBlob(url: string): Promise<Blob> {
  const path = url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : url;
  const id = /^\/files\/(\d+)\/$/.exec(path)?.[1];
  const response = await sendRaw(filesApi.getFile, id ? buildPath(filesApi.getFile.path, { id }) : path);
  return response.blob();
}
