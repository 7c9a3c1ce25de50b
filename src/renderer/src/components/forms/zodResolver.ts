import type { FormErrors } from '@mantine/form';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { isMessageKey, type MessageKey, type MessageValues, messageText } from '../../i18n/keys';

/**
 * A message of our own: refinements put the i18n key of a spec §5 rule in the issue's message
 * (`validation.…` of common, or `<namespace>:validation.…` of a screen's own namespace).
 */
const isValidationKey = (message: string): message is MessageKey => /^([a-zA-Z]+:)?validation\./.test(message) && isMessageKey(message);

/** The i18n key of a zod issue, so a form shows the server's rules in the user's language. */
export function issueMessageKey(issue: z.core.$ZodIssue): MessageKey {
  if (isValidationKey(issue.message)) return issue.message;
  if (issue.code === 'too_small') return 'validation.required';
  if (issue.code === 'too_big') return 'validation.too_long';
  return 'validation.invalid';
}

/**
 * What a form shows for a field's error: validators set message keys, translated here with
 * `values`; an error set as text (a server's refusal, translated already) shows as it is.
 */
export const formErrorText = (error: ReactNode, values?: MessageValues): ReactNode => (isMessageKey(error) ? messageText(error, values) : error);

/**
 * @mantine/form's `validate` from a zod schema (the shared request schema, possibly refined): each
 * field gets the i18n key of its first issue, or the screen's own key for that field
 * (`fieldKeys`). Ours rather than a package, so it follows zod 4.
 */
export function zodResolver<Values>(schema: z.ZodType<unknown, Values>, fieldKeys: Partial<Record<string, MessageKey>> = {}) {
  return (values: Values): Partial<Record<string, MessageKey>> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Partial<Record<string, MessageKey>> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      errors[path] ??= fieldKeys[path] ?? issueMessageKey(issue);
    }
    return errors;
  };
}

/** The body schema an endpoint declares, for a form that edits that body. */
export function bodySchemaOf<B extends z.ZodType>(endpoint: { body?: B; path: string }): B {
  if (!endpoint.body) throw new Error(`${endpoint.path} declares no body`);
  return endpoint.body;
}

/** On a refused submit, puts the keyboard on the first field in error (the order of the form's inputs). */
export function focusFirstError(form: { getInputNode: (path: string) => HTMLElement | null }, errors: FormErrors): void {
  const nodes = Object.keys(errors)
    .map((path) => form.getInputNode(path))
    .filter((node): node is HTMLElement => node !== null);
  nodes.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  nodes[0]?.focus();
}
