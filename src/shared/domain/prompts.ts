/**
 * The prompt library (issue 23): saved texts with `{{variables}}`, tenant-wide (an admin's) or
 * personal (each member's own), inserted from the message box with `/`. The rules here are the
 * contract's (server and forms), the menu's and the variable form's; the why is decision record
 * 0080-prompt-library.
 */

export const PROMPT_SCOPES = ['tenant', 'personal'] as const;
export type PromptScope = (typeof PROMPT_SCOPES)[number];

/** A name reads as one line in the `/` menu. */
export const PROMPT_NAME_MAX = 60;
/** About two pages: a prompt is a starting message, not a document. */
export const PROMPT_TEXT_MAX = 4000;
export const PROMPT_VARIABLE_NAME_MAX = 30;
/** Each asks for a field in the form shown before insertion: more than this is no longer a form one fills in. */
export const PROMPT_VARIABLES_MAX = 10;
export const PERSONAL_PROMPTS_MAX = 100;
export const TENANT_PROMPTS_MAX = 200;

/** `{{ anything without braces }}`; what is inside decides whether it is a variable. */
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** A letter of any script first, then letters, digits or `_`: `topic`, `대상`, `tone_2`. */
const VARIABLE_NAME = /^\p{L}[\p{L}\p{M}\p{N}_]*$/u;

export const isVariableName = (name: string): boolean => name.length <= PROMPT_VARIABLE_NAME_MAX && VARIABLE_NAME.test(name);

/** The distinct variable names of a text, in order of first use (`{{ topic }}` is `topic`). */
export function promptVariables(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1]!.trim();
    if (isVariableName(name)) names.add(name);
  }
  return [...names];
}

export type PromptTextProblem = 'invalid_variable' | 'too_many_variables';

/** What is wrong with a text's placeholders: one that is not a variable name (`{{}}`, `{{two words}}`), or too many variables. */
export function promptTextProblem(text: string): PromptTextProblem | null {
  for (const match of text.matchAll(PLACEHOLDER)) if (!isVariableName(match[1]!.trim())) return 'invalid_variable';
  return promptVariables(text).length > PROMPT_VARIABLES_MAX ? 'too_many_variables' : null;
}

/** The text with each `{{name}}` replaced by its value, in one pass (a value holding `{{x}}` stays as typed). */
export function fillPrompt(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (placeholder, inner: string) => {
    const name = inner.trim();
    return Object.hasOwn(values, name) ? values[name]! : placeholder;
  });
}

/** Names compare without letter case or surrounding spaces: "Summary" and "summary " are one name in a scope. */
export const promptNameKey = (name: string): string => name.trim().toLowerCase();

/** The prompts whose name contains the typed words (letter case ignored), those starting with them first. */
export function matchPrompts<P extends { name: string }>(prompts: readonly P[], query: string): P[] {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return [...prompts];
  const starts: P[] = [];
  const contains: P[] = [];
  for (const prompt of prompts) {
    const name = prompt.name.toLowerCase();
    if (name.startsWith(wanted)) starts.push(prompt);
    else if (name.includes(wanted)) contains.push(prompt);
  }
  return [...starts, ...contains];
}

/**
 * The `/` command the caret is in: a `/` at the start of the text or after white space, then what
 * was typed up to the caret without white space. `start` is the index of the `/`.
 */
export function slashCommandAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(?:^|\s)\/(\S*)$/u.exec(before);
  if (!match) return null;
  const query = match[1]!;
  return { start: caret - query.length - 1, query };
}
