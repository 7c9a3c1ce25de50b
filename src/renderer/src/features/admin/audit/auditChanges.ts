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

/** The value that names the entry's target (`Tax Helper`, `Codename`…), if the entry has one. */
export function targetLabel(changes: AuditEntry['changes']): string | null {
  for (const field of NAMING_FIELDS) {
    const value = changes[field];
    if (typeof value === 'string' && value.trim()) return value;
    if (isFieldChange(value) && typeof value.to === 'string' && value.to.trim()) return value.to;
  }
  return null;
}

/** `resident_number` → `resident number`: field names as words (they are the API's own names). */
export const fieldLabel = (field: string) => field.replace(/_/g, ' ');
