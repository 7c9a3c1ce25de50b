import i18next, { type FlatNamespace, type ParseKeys } from 'i18next';

/**
 * A key as `i18next.t` reads it: any namespace's written with its namespace (`errors:unknown`), or
 * the default namespace's (common) without. What a table of messages or a form's validation holds;
 * a `t` bound to one namespace takes only that namespace's keys.
 */
export type MessageKey = ParseKeys<'common'> | { [N in FlatNamespace]: `${N}:${ParseKeys<N>}` }[FlatNamespace];

/** The values a message interpolates (`{{count}}`, `{{field_name}}`…). */
export type MessageValues = Record<string, unknown>;

/**
 * The text of a message key in the current language. The one place a `MessageKey` is translated:
 * i18next's types resolve `t` over the union of every key once here, not at each call.
 */
export const messageText = (key: MessageKey, values?: MessageValues): string => i18next.t(key, values);

/**
 * Whether a string that comes from data is a message key, that is found among the loaded strings.
 * For what the types cannot follow: the message of a zod issue (the shared schemas write keys
 * there) and a form error, which @mantine/form keeps as a ReactNode.
 */
export const isMessageKey = (value: unknown): value is MessageKey => typeof value === 'string' && i18next.exists(value);

/** The namespaces that have every one of `Keys`: what a shared component takes as its texts' namespace. */
export type NamespaceWith<Keys extends string> = { [N in FlatNamespace]: [Keys] extends [ParseKeys<N>] ? N : never }[FlatNamespace];
