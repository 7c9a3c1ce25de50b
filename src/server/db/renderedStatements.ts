import { Column, Name, Param, Placeholder, SQL, StringChunk, Table } from 'drizzle-orm';

/** What a dialect's `sqlToQuery` returns; the drivers read the text and the parameters only. */
interface Query {
  sql: string;
  params: unknown[];
  typings?: unknown[];
}

type SqlToQuery = (sql: SQL, invokeSource?: 'indexes') => Query;

/** Statement shapes kept per database; a program has a few hundred, each a few kilobytes. */
const MAX_SHAPES = 1_000;

// Drizzle's own keys on a table (drizzle-orm/table.js), which decide how it and its columns render.
const TABLE_NAME = Symbol.for('drizzle:Name');
const TABLE_SCHEMA = Symbol.for('drizzle:Schema');
const IS_ALIAS = Symbol.for('drizzle:IsAlias');
const tableKey = (table: Table) => {
  const own = table as unknown as Record<symbol, unknown>;
  return `${String(own[TABLE_SCHEMA] ?? '')}.${String(own[TABLE_NAME])}${own[IS_ALIAS] ? '!' : ''}`;
};

/** Marks a chunk this walk does not know: the statement is rendered by Drizzle, uncached. */
const UNKNOWN = Symbol('unknown chunk');

// A part of a key: text is prefixed with "s", so no text can read as one of these markers.
const PARAMETER = '\u0001';
const LIST_START = '\u0002';
const LIST_END = '\u0003';

/**
 * Appends what decides the statement's text to `key` (its static text, names, tables and columns,
 * where parameters go) and its parameter values (as the driver gets them) to `params`, in Drizzle's
 * order. A nested fragment renders as its own text in place, so it adds no mark of its own. Throws
 * UNKNOWN on anything but the common chunk types.
 */
function walk(chunks: readonly unknown[], key: string[], params: unknown[]): void {
  for (const chunk of chunks) {
    if (chunk === undefined) continue;
    if (chunk === null || typeof chunk !== 'object') {
      if (typeof chunk === 'function' || typeof chunk === 'symbol') throw UNKNOWN;
      key.push(PARAMETER);
      params.push(chunk);
      continue;
    }
    const type = chunk.constructor;
    if (type === StringChunk) key.push(`s${(chunk as StringChunk).value.join('')}`);
    else if (type === SQL) {
      if ((chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams) throw UNKNOWN;
      walk((chunk as SQL).queryChunks, key, params);
    } else if (type === Param) {
      const { value, encoder } = chunk as Param;
      if (value instanceof Placeholder) throw UNKNOWN;
      const mapped: unknown = value === null ? null : encoder.mapToDriverValue(value);
      if (mapped !== null && typeof mapped === 'object' && 'getSQL' in mapped) throw UNKNOWN;
      key.push(PARAMETER);
      params.push(mapped);
    } else if (type === Name) key.push(`n${(chunk as Name).value}`);
    else if (Array.isArray(chunk)) {
      key.push(LIST_START);
      walk(chunk, key, params);
      key.push(LIST_END);
    } else if (chunk instanceof Column) key.push(`c${tableKey(chunk.table)}.${chunk.name}`);
    else if (chunk instanceof Table) key.push(`t${tableKey(chunk)}`);
    else if (type === SQL.Aliased && (chunk as SQL.Aliased).fieldAlias !== undefined) key.push(`a${(chunk as SQL.Aliased).fieldAlias}`);
    else if (type === Object || type === Date || type === Buffer || type === Uint8Array) {
      key.push(PARAMETER);
      params.push(chunk);
    } else throw UNKNOWN;
  }
}

const sameValue = (a: unknown, b: unknown) => Object.is(a, b) || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());

/**
 * Wraps a dialect's `sqlToQuery` so a statement shape is rendered by Drizzle once. Drizzle renders
 * every statement anew from its tree of chunks, and on a chat turn (a few statements of several
 * kilobytes built from nested fragments) that was an eighth of the server's CPU (bench:server).
 * A walk of the same tree that only collects the static text and the parameters is several times
 * cheaper; the text for that shape comes from the first rendering. The first rendering of a shape
 * is checked against the walk (the same parameters in the same order); a shape that differs, or a
 * statement with a chunk the walk does not know, is always rendered by Drizzle.
 */
export function cacheRenderedStatements(original: SqlToQuery): SqlToQuery {
  const texts = new Map<string, string | null>();
  return (statement, invokeSource) => {
    if (invokeSource !== undefined) return original(statement, invokeSource);
    const keyParts: string[] = [];
    const params: unknown[] = [];
    try {
      walk(statement.queryChunks, keyParts, params);
    } catch (error) {
      if (error === UNKNOWN) return original(statement, invokeSource);
      throw error;
    }
    const key = keyParts.join('\u0000');
    const text = texts.get(key);
    if (text) return { sql: text, params };
    const rendered = original(statement, invokeSource);
    if (text === undefined) {
      const agrees = rendered.params.length === params.length && rendered.params.every((value, index) => sameValue(value, params[index]));
      if (texts.size >= MAX_SHAPES) texts.clear();
      texts.set(key, agrees ? rendered.sql : null);
    }
    return rendered;
  };
}
