import { z } from 'zod';
import { isWellFormedText } from '../domain/text';
import { LANGUAGES } from '../domain/language';

/** Every error body the server sends, whatever the status. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const okSchema = z.object({ ok: z.literal(true) });

/**
 * Database ids are PostgreSQL `integer`s. A larger id names nothing and would make the query itself
 * fail, so the contract refuses it like any other malformed id.
 */
export const ID_MAX = 2_147_483_647;
export const idSchema = z.number().int().positive().max(ID_MAX);
/** An id in a path or query string, where it arrives as text. */
export const idTextSchema = z.coerce.number().int().positive().max(ID_MAX);

export const idParamsSchema = z.object({ id: idTextSchema });

export const pageQuerySchema = (defaultSize: number) =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).max(100).default(defaultSize),
  });

/** List endpoints answer with the items and the pagination of spec §3. */
export const paginatedSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total_items: z.number().int(),
    total_pages: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
/** A page of `T`, derived from `paginatedSchema` so the type and the wire format cannot drift. */
export type Paginated<T> = z.infer<ReturnType<typeof paginatedSchema<z.ZodType<T>>>>;

/** Booleans in query strings arrive as text. */
export const queryBoolean = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

/**
 * One of the two names of a member group, custom field or task mode (spec §1); '' is "no name in
 * this language", where the other one is shown (docs/decisions/0024-bilingual-names-fields-modes.md).
 */
export const bilingualNameSchema = (max: number) => z.string().trim().max(max).refine(isWellFormedText);

export const isoDateTime = z.string().describe('ISO 8601 date-time');
