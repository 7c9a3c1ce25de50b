/** A UTF-16 surrogate without its pair: not text PostgreSQL can store (it refuses the whole statement). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when the string is well-formed Unicode, so the contract can refuse the rest with a 400 of its own. */
export const isWellFormedText = (value: string): boolean => !LONE_SURROGATE.test(value);
