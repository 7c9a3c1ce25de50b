import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../../shared/api';

const api = vi.hoisted(() => ({ uploadChatFiles: vi.fn(), getFileProgress: vi.fn(), deleteChatFile: vi.fn(), fetchFileBlob: vi.fn() }));
vi.mock('../../../api/files', () => api);

const { attachFiles, formatSize, hasImage, isBusy, refreshProgress, removeAttachment, restoreAttachments, takeAttachments, useAttachmentsStore } =
  await import('./attachmentsStore');

const uploaded = (id: number, name: string, status: 'parsing' | 'parsed', type = 'text/plain') => ({
  id,
  name,
  size: 5,
  type,
  url: `/api/v1/files/${id}/`,
  access_level: 'public',
  should_expire: true,
  status,
  parsed_percentage: status === 'parsed' ? 100 : 0,
  created_at: '2026-01-01T00:00:00Z',
});

beforeEach(() => {
  useAttachmentsStore.setState({ items: [] });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() }));
});
afterEach(() => vi.clearAllMocks());

describe('composer attachments', () => {
  it('shows chips while uploading, then follows the parse progress until the message can go', async () => {
    let finish!: (value: unknown) => void;
    api.uploadChatFiles.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const pending = attachFiles([new File(['hello'], 'notes.txt', { type: 'text/plain' }), new File(['x'], 'dot.png', { type: 'image/png' })], 7, vi.fn());
    expect(useAttachmentsStore.getState().items.map((item) => item.state)).toEqual(['uploading', 'uploading']);
    expect(isBusy(useAttachmentsStore.getState().items)).toBe(true);
    // The upload tells how far it got; both chips of the upload show it.
    api.uploadChatFiles.mock.calls[0]![1].onProgress(42);
    expect(useAttachmentsStore.getState().items.map((item) => item.percentage)).toEqual([42, 42]);
    finish([uploaded(1, 'notes.txt', 'parsing'), uploaded(2, 'dot.png', 'parsed', 'image/png')]);
    await pending;
    expect(api.uploadChatFiles).toHaveBeenCalledWith(expect.any(Array), expect.objectContaining({ chatbotId: 7, attached: [] }));
    expect(useAttachmentsStore.getState().items.map((item) => [item.id, item.state])).toEqual([
      [1, 'parsing'],
      [2, 'parsed'],
    ]);
    expect(hasImage(useAttachmentsStore.getState().items)).toBe(true);

    api.getFileProgress.mockResolvedValue([{ id: 1, status: 'parsed', parsed_percentage: 60 }]);
    await refreshProgress();
    expect(api.getFileProgress).toHaveBeenCalledWith([1]);
    expect(useAttachmentsStore.getState().items[0]).toMatchObject({ state: 'parsed', percentage: 60 });
    expect(isBusy(useAttachmentsStore.getState().items)).toBe(false);

    const taken = takeAttachments();
    expect(useAttachmentsStore.getState().items).toEqual([]);
    restoreAttachments(taken);
    expect(useAttachmentsStore.getState().items).toHaveLength(2);
  });

  it('a refused upload removes its chips and reports the spec message with the 429 values', async () => {
    api.uploadChatFiles.mockRejectedValue(
      new ApiError(429, {
        code: 'rate_limited',
        message: 'slow down',
        details: { limit_count: 30, window_minutes: 10, current_count: 31, reset_at: '2026-01-01T10:00:00Z' },
      }),
    );
    const onError = vi.fn();
    await attachFiles([new File(['a'], 'a.txt')], 7, onError);
    expect(useAttachmentsStore.getState().items).toEqual([]);
    expect(onError).toHaveBeenCalledWith(
      'files:errors.upload_429',
      expect.objectContaining({ limit_count: 30, window_minutes: 10, current_count: 31, reset_time: expect.any(String) }),
    );
  });

  it('removing an uploaded chip deletes the unsent file', async () => {
    api.uploadChatFiles.mockResolvedValue([uploaded(5, 'a.txt', 'parsed')]);
    api.deleteChatFile.mockResolvedValue({ ok: true });
    await attachFiles([new File(['a'], 'a.txt')], 7, vi.fn());
    removeAttachment(useAttachmentsStore.getState().items[0]!.key, vi.fn());
    expect(useAttachmentsStore.getState().items).toEqual([]);
    expect(api.deleteChatFile).toHaveBeenCalledWith(5);
  });

  it('removing every chip of an upload under way stops it, without an error', async () => {
    api.uploadChatFiles.mockImplementation(
      (_files: File[], { signal }: { signal: AbortSignal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')))),
    );
    const onError = vi.fn();
    const pending = attachFiles([new File(['a'], 'a.txt'), new File(['b'], 'b.txt')], 7, onError);
    const [first, second] = useAttachmentsStore.getState().items;
    const { signal } = api.uploadChatFiles.mock.calls[0]![1] as { signal: AbortSignal };
    removeAttachment(first!.key, vi.fn());
    expect(signal.aborted).toBe(false); // b.txt still wants it
    removeAttachment(second!.key, vi.fn());
    expect(signal.aborted).toBe(true);
    await pending;
    expect(onError).not.toHaveBeenCalled();
    expect(api.deleteChatFile).not.toHaveBeenCalled();
  });

  it('formats sizes for the chips', () => {
    expect(formatSize(12, 'en')).toBe('12 B');
    expect(formatSize(1536, 'en')).toBe('1.5 KB');
    expect(formatSize(5 * 1024 * 1024, 'en')).toBe('5 MB');
  });
});
