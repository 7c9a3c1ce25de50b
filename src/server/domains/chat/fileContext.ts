/**
 * The member's attached files as model input: each document's parsed text (file_sections) inside a
 * `<file>` block, within a share of the model's context, and each image as an image file part
 * for vision models. Text beyond the share is cut here; ranking what did not fit is retrieval's job.
 */
import type { FilePart, ModelMessage, TextPart } from 'ai';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { estimateTokens } from '../../../shared/domain/tokens';
import type { AppDeps } from '../../deps';
import { fileSections, files } from '../../db/schema';
import type { FileStore } from '../../storage/fileStore';

/** Share of the model's context limit the attached files' text may fill. */
export const FILE_CONTEXT_SHARE = 0.5;
/** What one image is counted as before the model reports real usage (a detailed 1024 px image is about this). */
export const IMAGE_TOKENS = 1000;

export interface TurnInput {
  /** The member's message with the files: plain text without files. */
  message: ModelMessage;
  /** Estimated tokens of the whole message. */
  tokens: number;
  /** Documents whose whole text is in the message: retrieval cites them without repeating their passages. */
  wholeFileIds: number[];
}

export type FileContext = (tenantId: number, fileIds: number[], text: string, contextLimit: number) => Promise<TurnInput>;

const attribute = (value: string) => value.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c] ?? c);

async function readAll(store: FileStore, key: string): Promise<Buffer | null> {
  const stored = await store.get(key);
  if (!stored) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const textOnly = (text: string): TurnInput => ({ message: { role: 'user', content: text }, tokens: estimateTokens(text), wholeFileIds: [] });

/** For callers that never send files (service tests): a message with files needs `createFileContext`. */
export const withoutFiles: FileContext = async (_tenantId, fileIds, text) => {
  if (fileIds.length > 0) throw new Error('sending files needs a file context (createFileContext)');
  return textOnly(text);
};

export function createFileContext({ db, store }: Pick<AppDeps, 'db' | 'store'>): FileContext {
  return async (tenantId, fileIds, text, contextLimit) => {
    if (fileIds.length === 0) return textOnly(text);
    const rows = await db
      .select()
      .from(files)
      .where(and(eq(files.tenantId, tenantId), inArray(files.id, fileIds)));
    const ordered = fileIds.flatMap((id) => rows.filter((row) => row.id === id));
    const sections = await db
      .select({ fileId: fileSections.fileId, page: fileSections.page, heading: fileSections.heading, text: fileSections.text })
      .from(fileSections)
      .where(inArray(fileSections.fileId, fileIds))
      .orderBy(asc(fileSections.fileId), asc(fileSections.ordinal));

    let budget = Math.floor(contextLimit * FILE_CONTEXT_SHARE);
    const blocks: string[] = [];
    const images: FilePart[] = [];
    const wholeFileIds: number[] = [];
    for (const file of ordered) {
      const open = `<file name="${attribute(file.name)}" type="${attribute(file.mimeType)}"`;
      if (file.mimeType.startsWith('image/')) {
        const bytes = await readAll(store, file.storageKey);
        if (!bytes) continue;
        // An image file part (the SDK's current form of an image part) goes to vision models as image input.
        images.push({ type: 'file', data: bytes, mediaType: file.mimeType, filename: file.name });
        blocks.push(`${open}>(the image is attached)</file>`);
        budget -= IMAGE_TOKENS;
        continue;
      }
      const state = file.parseStatus === 'failed' ? 'could not be read' : file.parseStatus === 'parsing' ? 'still being parsed' : null;
      const lines: string[] = [];
      let cut = false;
      for (const section of sections.filter((s) => s.fileId === file.id)) {
        const label = section.page ? `[page ${section.page}]\n` : section.heading ? `[${section.heading}]\n` : '';
        const piece = `${label}${section.text}`;
        const cost = estimateTokens(piece);
        if (cost > budget) {
          cut = true;
          break;
        }
        budget -= cost;
        lines.push(piece);
      }
      const parsed = file.parsedPercentage ?? 0;
      const notes = [
        state,
        parsed < 100 && !state ? `only the first ${parsed}% of the document was parsed` : null,
        cut ? 'cut to fit: the rest did not fit' : null,
      ];
      const note = notes.filter(Boolean).join('; ');
      if (!note) wholeFileIds.push(file.id);
      blocks.push(`${open}${note ? ` note="${note}"` : ''}>\n${lines.join('\n\n')}\n</file>`);
    }
    const filesText = blocks.join('\n');
    const content: (TextPart | FilePart)[] = [{ type: 'text', text: text ? `${filesText}\n\n${text}` : filesText }, ...images];
    return { message: { role: 'user', content }, tokens: estimateTokens(filesText) + estimateTokens(text) + images.length * IMAGE_TOKENS, wholeFileIds };
  };
}
