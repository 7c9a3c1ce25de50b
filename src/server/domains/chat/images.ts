import type { ServerConfig } from '../../config';
import { randomUUID } from 'node:crypto';
import { generateImage } from 'ai';
import type { ChatFrame } from '../../../shared/api/chat';
import { API_PREFIX } from '../../../shared/domain/http';
import { files, sessionMessageFiles } from '../../db/schema';
import { detectFileType } from '../../storage/fileType';
import type { ChatDeps, ChatTurn, CheckedSend, StreamOutcome } from './turn';

/** Spec §8 "image generation 500": the client shows its own message for this code. */
export const IMAGE_FAILED_FRAME: ChatFrame = { type: 'error', code: 'image_generation_failed', message: 'The image could not be generated. Please try again.' };

const IMAGE_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' } as const;
const NAME_MAX = 60;

/** The URL a stored file is served at (GET /files/{id}/), as session history lists it. */
export const fileUrl = (fileId: number) => `${API_PREFIX}/files/${fileId}/`;

/** An image-mode send reserves the price of its image instead of the token estimate. */
export const priceImageSend = (send: CheckedSend, config: Pick<ServerConfig, 'IMAGE_CREDITS'>): CheckedSend =>
  send.modes.image ? { ...send, reserved: config.IMAGE_CREDITS } : send;

/** A download name from the prompt: letters and digits of any script, dashes between words. */
export function imageFileName(prompt: string, extension: string): string {
  const words = prompt.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? [];
  let stem = '';
  for (const word of words) {
    const next = stem ? `${stem}-${word}` : word;
    if (Array.from(next).length > NAME_MAX) break;
    stem = next;
  }
  return `${stem || 'image'}.${extension}`;
}

/**
 * The answer of an image-mode turn: generates one image from the member's text through the AI SDK
 * image API, stores it as a file of the member linked to the answer (so the history shows it) and
 * yields its `image` frame. Credits are charged only for an image that was stored.
 */
export async function* imageFrames(
  deps: ChatDeps,
  turn: ChatTurn,
  signal: AbortSignal,
): AsyncGenerator<ChatFrame, { outcome: StreamOutcome; failure: unknown }, undefined> {
  const { model, name } = deps.llm.imageModel();
  const outcome = (finishReason: StreamOutcome['finishReason'], count = 0): StreamOutcome => ({
    text: '',
    citations: [],
    toolCalls: [],
    inputTokens: 0,
    outputTokens: 0,
    finishReason,
    image: { model: name, count, credits: count * deps.config.IMAGE_CREDITS },
  });
  try {
    const { image } = await generateImage({ model, prompt: turn.text, n: 1, size: turn.modes.image?.size, abortSignal: signal, maxRetries: 0 });
    const bytes = Buffer.from(image.uint8Array);
    const kind = detectFileType(bytes);
    if (kind !== 'png' && kind !== 'jpeg' && kind !== 'webp' && kind !== 'gif') throw new Error(`the image model returned no image (${kind ?? 'unknown'})`);
    const storageKey = `tenants/${turn.tenant.id}/images/${randomUUID()}.${kind}`;
    await deps.store.put(storageKey, bytes, { contentType: IMAGE_TYPES[kind] });
    const fileId = await deps.db.transaction(async (tx) => {
      const [file] = await tx
        .insert(files)
        .values({
          tenantId: turn.tenant.id,
          memberId: turn.member.id,
          name: imageFileName(turn.text, kind === 'jpeg' ? 'jpg' : kind),
          mimeType: IMAGE_TYPES[kind],
          sizeBytes: bytes.length,
          storageKey,
          // An image is not parsed: it is ready as soon as it is stored.
          parseStatus: 'parsed',
          // Like an upload's default (spec §9): a session made public shows its images too.
          accessLevel: 'public',
          // Part of the conversation: kept as long as the answer that shows it.
          shouldExpire: false,
          chatbotId: turn.chatbot.id,
          sessionId: turn.session.id,
        })
        .returning({ id: files.id });
      if (!file) throw new Error('File insert returned no row');
      await tx.insert(sessionMessageFiles).values({ tenantId: turn.tenant.id, messageId: turn.meta.chatbot_message_id, fileId: file.id });
      return file.id;
    });
    yield { type: 'image', url: fileUrl(fileId) };
    return { outcome: outcome('stop', 1), failure: null };
  } catch (error) {
    if (signal.aborted) return { outcome: outcome('aborted'), failure: null };
    return { outcome: outcome('error'), failure: error };
  }
}
