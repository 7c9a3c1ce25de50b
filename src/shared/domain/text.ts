/** A UTF-16 surrogate without its pair: not text PostgreSQL can store (it refuses the whole statement). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when the string is well-formed Unicode, so the contract can refuse the rest with a 400 of its own. */
export const isWellFormedText = (value: string): boolean => !LONE_SURROGATE.test(value);

/** The string with each lone surrogate replaced by U+FFFD (what a UTF-8 encoder writes for it). */
export const toWellFormedText = (value: string): string => value.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
