import { create } from 'zustand';
import { filesApi, isApiError, type ChatFile } from '../../../../../shared/api';
import { deleteChatFile, getFileProgress, uploadChatFiles } from '../../../api/files';
import { errorMessageKey } from '../../../api/errorMessages';
import type { MessageKey } from '../../../i18n/keys';

/** A file in the composer: uploading, then parsing (documents) until parsed or failed. */
export interface Attachment {
  key: string;
  name: string;
  size: number;
  isImage: boolean;
  state: 'uploading' | ChatFile['status'];
  percentage: number;
  /** The server's id once uploaded. */
  id: number | null;
  /** The type read from the content and where to download it, once uploaded: the sent message shows the file. */
  type: string;
  url: string | null;
  /** A local preview of an image (object URL), revoked when the chip goes. */
  previewUrl: string | null;
  /** Stops the upload the file is part of, once every chip of that upload was removed. */
  upload: AbortController | null;
}

interface AttachmentsState {
  items: Attachment[];
}

export const useAttachmentsStore = create<AttachmentsState>(() => ({ items: [] }));

let nextKey = 0;

const update = (keys: readonly string[], change: (item: Attachment, index: number) => Attachment | null) =>
  useAttachmentsStore.setState(({ items }) => ({
    items: items.flatMap((item) => {
      const index = keys.indexOf(item.key);
      if (index < 0) return [item];
      const changed = change(item, index);
      return changed ? [changed] : [];
    }),
  }));

const forget = (item: Attachment) => {
  if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
};

/**
 * Uploads files for the next message and shows them as chips at once; a refused upload removes its
 * chips and reports the spec §8 message key through `onError`.
 */
export async function attachFiles(
  files: readonly File[],
  chatbotId: number,
  onError: (messageKey: MessageKey, values: Record<string, unknown>) => void,
): Promise<void> {
  if (files.length === 0) return;
  const attached = useAttachmentsStore.getState().items.flatMap((item) => (item.id === null ? [] : [item.id]));
  const upload = new AbortController();
  const added: Attachment[] = files.map((file) => {
    const isImage = file.type.startsWith('image/');
    return {
      key: `attachment-${++nextKey}`,
      name: file.name,
      size: file.size,
      isImage,
      state: 'uploading',
      percentage: 0,
      id: null,
      type: file.type,
      url: null,
      previewUrl: isImage ? URL.createObjectURL(file) : null,
      upload,
    };
  });
  const keys = added.map((item) => item.key);
  useAttachmentsStore.setState(({ items }) => ({ items: [...items, ...added] }));
  try {
    const uploaded = await uploadChatFiles(files, {
      chatbotId,
      attached,
      signal: upload.signal,
      onProgress: (percentage) => update(keys, (item) => ({ ...item, percentage })),
    });
    update(keys, (item, index) => {
      const file = uploaded[index];
      return file ? { ...item, id: file.id, type: file.type, url: file.url, state: file.status, percentage: file.parsed_percentage, upload: null } : null;
    });
  } catch (error) {
    added.forEach(forget);
    update(keys, () => null);
    // Every chip of this upload was removed: nothing to tell.
    if (!upload.signal.aborted) onError(errorMessageKey(error, filesApi.uploadFiles), messageValues(error));
  }
}

/** The values a refusal's message names (the 429 limit, window, count and reset time). */
function messageValues(error: unknown): Record<string, unknown> {
  const details = isApiError(error) ? (error.body?.details as Record<string, unknown> | undefined) : undefined;
  if (!details) return {};
  const resetAt = typeof details.reset_at === 'string' ? new Date(details.reset_at) : null;
  return { ...details, reset_time: resetAt ? resetAt.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '' };
}

/** Takes a chip away; the uploaded file is deleted too (it was never sent). */
export function removeAttachment(key: string, onError: (messageKey: MessageKey) => void): void {
  const item = useAttachmentsStore.getState().items.find((candidate) => candidate.key === key);
  if (!item) return;
  forget(item);
  update([key], () => null);
  const { items } = useAttachmentsStore.getState();
  if (item.upload && !items.some((other) => other.upload === item.upload)) item.upload.abort();
  if (item.id !== null) void deleteChatFile(item.id).catch((error: unknown) => onError(errorMessageKey(error, filesApi.deleteFile)));
}

/** The attachments of a message being sent, cleared from the composer (put back by `restoreAttachments` if refused). */
export function takeAttachments(): Attachment[] {
  const { items } = useAttachmentsStore.getState();
  useAttachmentsStore.setState({ items: [] });
  return items;
}

export function restoreAttachments(items: Attachment[]): void {
  if (items.length > 0) useAttachmentsStore.setState(({ items: current }) => ({ items: [...items, ...current] }));
}

/** Uploads or parsing still under way: the message waits for them. */
export const isBusy = (items: readonly Attachment[]) => items.some((item) => item.state === 'uploading' || item.state === 'parsing');

/** Spec §5: a message needs text or an image. */
export const hasImage = (items: readonly Attachment[]) => items.some((item) => item.isImage && item.id !== null);

/** Refreshes the parse progress of documents still parsing. */
export async function refreshProgress(): Promise<void> {
  const parsing = useAttachmentsStore.getState().items.filter((item) => item.state === 'parsing' && item.id !== null);
  if (parsing.length === 0) return;
  const progress = await getFileProgress(parsing.map((item) => item.id as number));
  useAttachmentsStore.setState(({ items }) => ({
    items: items.map((item) => {
      const found = progress.find((entry) => entry.id === item.id);
      return found ? { ...item, state: found.status, percentage: found.parsed_percentage } : item;
    }),
  }));
}

/** 1.2 MB, 350 KB, 12 B: sizes as the chips show them. */
export function formatSize(bytes: number, language: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
