import type { AuditEntry } from '../../../../../shared/api';

/** An edited field as services record it (`diffFields`): its value before and after. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

export const isFieldChange = (value: unknown): value is FieldChange =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).sort().join() === 'from,to';

/** The changes of an entry split into the edited fields (from → to) and the plain values (what was created, deleted or named). */
export function splitChanges(changes: AuditEntry['changes']): { edited: [string, FieldChange][]; values: [string, unknown][] } {
  const edited: [string, FieldChange][] = [];
  const values: [string, unknown][] = [];
  for (const [field, value] of Object.entries(changes)) {
    if (isFieldChange(value)) edited.push([field, value]);
    else values.push([field, value]);
  }
  return { edited, values };
}

/** Fields that name the target, most telling first: the summary shows the first one present. */
const NAMING_FIELDS = ['name', 'sso_platform_name', 'policy_name', 'field_name', 'word', 'model', 'email', 'content'];

/** Targets whose fields are settings, not names (`email` there is the e-mail kind of personal data). */
const SETTINGS_TARGETS = new Set(['pii_settings']);

/**
 * Markdown (an announcement's content) as one line of plain text: no heading, emphasis, code, quote
 * or list marks, links as their text.
 */
export function markdownSummary(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '')
    .replace(/<[^>]+>/g, '')
    .replace(/[*_~`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const asText = (field: string, value: string) => (field === 'content' ? markdownSummary(value) : value);

/**
 * The value that names the entry's target (`Tax Helper`, `Codename`…), if the entry has one; a
 * group's name in the language on screen.
 */
export function targetLabel(entry: Pick<AuditEntry, 'changes' | 'target_type'>, language: string): string | null {
  if (SETTINGS_TARGETS.has(entry.target_type)) return null;
  for (const field of [...NAMING_FIELDS, `${language}_name`, 'en_name', 'ko_name']) {
    const value = entry.changes[field];
    if (typeof value === 'string' && value.trim()) return asText(field, value);
    if (isFieldChange(value) && typeof value.to === 'string' && value.to.trim()) return asText(field, value.to);
  }
  return null;
}

/** Settings changed, each with its new value: `phone: mask, email: block`. */
export const settingsSummary = (edited: [string, FieldChange][]) => edited.map(([field, change]) => `${fieldLabel(field)}: ${String(change.to)}`).join(', ');

export const isSettingsTarget = (targetType: string) => SETTINGS_TARGETS.has(targetType);

/** `resident_number` → `resident number`: field names as words (they are the API's own names). */
export const fieldLabel = (field: string) => field.replace(/_/g, ' ');
