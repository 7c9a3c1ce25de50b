import type { FormErrors } from '@mantine/form';
import type { z } from 'zod';

/**
 * A message of our own: refinements put the i18n key of a spec §5 rule in the issue's message
 * (`validation.…` of common, or `<namespace>:validation.…` of a screen's own namespace).
 */
const isValidationKey = (message: string) => /^([a-zA-Z]+:)?validation\./.test(message);

/** The `common` i18n key of a zod issue, so a form shows the server's rules in the user's language. */
export function issueMessageKey(issue: z.core.$ZodIssue): string {
  if (isValidationKey(issue.message)) return issue.message;
  if (issue.code === 'too_small') return 'validation.required';
  if (issue.code === 'too_big') return 'validation.too_long';
  return 'validation.invalid';
}

/**
 * @mantine/form's `validate` from a zod schema (the shared request schema, possibly refined): each
 * field gets the i18n key of its first issue, or the screen's own key for that field
 * (`fieldKeys`). Ours rather than a package, so it follows zod 4.
 */
export function zodResolver<Values>(schema: z.ZodType<unknown, Values>, fieldKeys: Partial<Record<string, string>> = {}) {
  return (values: Values): FormErrors => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: FormErrors = {};
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
