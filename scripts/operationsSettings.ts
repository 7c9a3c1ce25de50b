/**
 * `npm run docs:settings`: writes the settings table of docs/OPERATIONS.md from src/server/config.ts,
 * between the two marker comments: every variable, its default (what the server takes with an empty
 * environment), what it accepts (numeric ranges, choices) and its `.describe()` text.
 * `operationsSettings.test.ts` fails when the file differs from what this would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { configSchema, loadConfig } from '../src/server/config';

export const OPERATIONS_PATH = fileURLToPath(new URL('../docs/OPERATIONS.md', import.meta.url));
export const TABLE_START = '<!-- settings table: generated from src/server/config.ts by `npm run docs:settings`; edit the descriptions there -->';
export const TABLE_END = '<!-- end of the generated settings table -->';

export interface SettingRow {
  name: string;
  defaultValue: string;
  accepts: string;
  description: string;
}

/** The schemas that may hold a setting's checks: defaults and optionals unwrapped, both sides of a pipe. */
function checkedSchemas(schema: z.ZodType): z.ZodType[] {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) return checkedSchemas(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return [...checkedSchemas(schema.in as z.ZodType), ...checkedSchemas(schema.out as z.ZodType)];
  return [schema];
}

const number = (value: number) => value.toLocaleString('en-US');

function accepts(schema: z.ZodType): string {
  for (const inner of checkedSchemas(schema)) {
    if (inner instanceof z.ZodNumber) {
      const { minValue, maxValue } = inner;
      const safe = (value: number | null): value is number => value !== null && Math.abs(value) < Number.MAX_SAFE_INTEGER;
      if (safe(minValue) && safe(maxValue)) return `${number(minValue)}–${number(maxValue)}`;
      return safe(minValue) ? `≥ ${number(minValue)}` : 'a number';
    }
    if (inner instanceof z.ZodURL) return 'a URL';
    if (inner instanceof z.ZodEmail) return 'an email address';
    if (inner instanceof z.ZodEnum) {
      const options = inner.options.map(String);
      return options.includes('true') ? 'a flag: `true/false`, `1/0`, `yes/no`, `on/off`' : options.map((option) => `\`${option}\``).join(', ');
    }
  }
  return '';
}

function shownDefault(value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'unset';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

/** One row per setting of config.ts, in its order; throws naming any setting without a description. */
export function settingRows(): SettingRow[] {
  const defaults = loadConfig({});
  const shape = configSchema.shape as Record<string, z.ZodType>;
  const undescribed = Object.keys(shape).filter((name) => !shape[name]!.description);
  if (undescribed.length > 0) throw new Error(`Settings without a .describe() text in src/server/config.ts: ${undescribed.join(', ')}`);
  return Object.entries(shape).map(([name, schema]) => ({
    name,
    defaultValue: shownDefault(defaults[name as keyof typeof defaults]),
    accepts: accepts(schema),
    description: schema.description!,
  }));
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function renderSettingsTable(rows: SettingRow[] = settingRows()): string {
  return [
    '| Variable | Default | Accepts | Meaning |',
    '|---|---|---|---|',
    ...rows.map((row) => `| \`${row.name}\` | ${cell(row.defaultValue)} | ${cell(row.accepts)} | ${cell(row.description)} |`),
  ].join('\n');
}

function tableBounds(markdown: string): { start: number; end: number } {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/OPERATIONS.md needs the two marker lines of the settings table:\n${TABLE_START}\n${TABLE_END}`);
  return { start: start + TABLE_START.length, end };
}

/** The document with its settings table as config.ts describes it. */
export function withSettingsTable(markdown: string, table: string = renderSettingsTable()): string {
  const { start, end } = tableBounds(markdown);
  return `${markdown.slice(0, start)}\n${table}\n${markdown.slice(end)}`;
}

/** Rows of the table now in the document, by variable name (a row's whole line). */
export function documentedRows(markdown: string): Map<string, string> {
  const { start, end } = tableBounds(markdown);
  const rows = new Map<string, string>();
  for (const line of markdown.slice(start, end).split('\n')) {
    const name = /^\| `([A-Z0-9_]+)` \|/.exec(line)?.[1];
    if (name) rows.set(name, line);
  }
  return rows;
}

/** How the document's table differs from config.ts: settings it lacks, settings config.ts no longer has, rows that changed. */
export function settingsDrift(markdown: string): { missing: string[]; stale: string[]; changed: string[] } {
  const documented = documentedRows(markdown);
  const expected = documentedRows(withSettingsTable(markdown));
  return {
    missing: [...expected.keys()].filter((name) => !documented.has(name)),
    stale: [...documented.keys()].filter((name) => !expected.has(name)),
    changed: [...expected.keys()].filter((name) => documented.has(name) && documented.get(name) !== expected.get(name)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(OPERATIONS_PATH, 'utf8');
  const after = withSettingsTable(before);
  if (after === before) console.log('docs/OPERATIONS.md: the settings table is up to date.');
  else {
    writeFileSync(OPERATIONS_PATH, after);
    console.log('docs/OPERATIONS.md: settings table written from src/server/config.ts.');
  }
}
