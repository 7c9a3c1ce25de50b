import { createParser } from 'eventsource-parser';
import { chatFrameSchema, type ChatFrame } from './chat';

/** An aborted fetch or body read (DOMException in browsers, Error in Node): a stop, not a failure. */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** JSON of a header or event line, or null when it is missing or not JSON. */
export function parseJsonOrNull(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Reads a chat event stream (DESIGN §6) to its end and hands on each valid frame, the same on the
 * web (in the renderer) and on desktop (in main). Frames this client does not know, such as a newer
 * server's additions, are skipped. Rejects when the connection breaks or the request is aborted.
 */
export async function readChatFrames(body: ReadableStream<Uint8Array>, onFrame: (frame: ChatFrame) => void): Promise<void> {
  const parser = createParser({
    onEvent(message) {
      const frame = chatFrameSchema.safeParse(parseJsonOrNull(message.data));
      if (frame.success) onFrame(frame.data);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
