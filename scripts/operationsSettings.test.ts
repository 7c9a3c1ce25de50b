import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/server/config';
import { OPERATIONS_PATH, documentedRows, renderSettingsTable, settingRows, settingsDrift, withSettingsTable } from './operationsSettings';

describe('docs/OPERATIONS.md "Settings"', () => {
  it('is the table config.ts describes: no setting missing, none that config.ts no longer has, none changed (run `npm run docs:settings`)', () => {
    const drift = settingsDrift(readFileSync(OPERATIONS_PATH, 'utf8'));
    expect(drift, 'run `npm run docs:settings` after changing src/server/config.ts').toEqual({ missing: [], stale: [], changed: [] });
  });

  it('lists every setting of config.ts, each with its description', () => {
    expect(settingRows().map((row) => row.name)).toEqual(Object.keys(configSchema.shape));
    expect(settingRows().filter((row) => row.description.trim() === '')).toEqual([]);
  });

  it('names what drifted: a setting left out, a setting removed from config.ts, a changed default', () => {
    const current = withSettingsTable(readFileSync(OPERATIONS_PATH, 'utf8'));
    const rows = [...documentedRows(current).values()];
    const edited = current
      .replace(`${rows.find((row) => row.startsWith('| `FILE_MAX_MB` |'))!}\n`, '')
      .replace('| `PORT` | `3000` |', '| `PORT` | `8080` |')
      .replace(rows.at(-1)!, `${rows.at(-1)!}\n| \`OLD_SETTING\` | unset |  | Gone. |`);
    expect(settingsDrift(edited)).toEqual({ missing: ['FILE_MAX_MB'], stale: ['OLD_SETTING'], changed: ['PORT'] });
  });

  it('shows what the server takes with an empty environment and what a setting accepts', () => {
    const table = renderSettingsTable();
    expect(table).toContain('| `PORT` | `3000` | 0–65,535 |');
    expect(table).toContain('| `DATABASE_URL` | unset | a URL |');
    expect(table).toContain('| `LOG_LEVEL` | `warn` | `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent` |');
  });
});
