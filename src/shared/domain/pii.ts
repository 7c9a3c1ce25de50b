/**
 * Personal data in chat input (spec §3 PII options, §5): what each kind looks like, and what a
 * tenant does with it. The composer uses these patterns to warn before sending; the server uses the
 * same ones to block (428) or mask what it stores and sends to the model.
 */
/**
 * `phone` is spec §9's 11-digit (Korean mobile) number; `international_phone` is ours (issue 21):
 * an E.164 number written with its country code, for tenants whose members are not only in Korea.
 */
export const PII_KINDS = ['phone', 'email', 'resident_number', 'credit_card', 'international_phone'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

export const PII_ACTIONS = ['off', 'block', 'mask'] as const;
export type PiiAction = (typeof PII_ACTIONS)[number];

export type PiiSettings = Record<PiiKind, PiiAction>;

export const PII_SETTINGS_OFF: PiiSettings = { phone: 'off', email: 'off', resident_number: 'off', credit_card: 'off', international_phone: 'off' };

/** Not glued to another digit, directly or through one separator: a number is matched whole or not at all. */
const START = String.raw`(?<!\d[-. ]?)`;
const END = String.raw`(?![-. ]?\d)`;

const PATTERNS: Record<PiiKind, RegExp> = {
  // Korean mobile numbers, 11 digits (010-1234-5678, 01012345678, 010 1234 5678, +82 10-1234-5678).
  phone: new RegExp(String.raw`${START}(?:\+82[- ]?|0)1[016789][-. ]?\d{4}[-. ]?\d{4}${END}`, 'g'),
  email: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
  // Resident registration number, 13 digits: a birth date YYMMDD, then a 1-8 gender/century digit and six more.
  resident_number: new RegExp(String.raw`${START}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[- ]?[1-8]\d{6}${END}`, 'g'),
  // Card numbers, 16 digits in groups of four, with one kind of separator or none.
  credit_card: new RegExp(String.raw`${START}\d{4}([- ]?)\d{4}\1\d{4}\1\d{4}${END}`, 'g'),
  // E.164 with its country code: "+", then 8 to 15 digits in all (the lookahead counts them), in
  // groups split by one space, dash or dot, an area code possibly in brackets
  // (+44 20 7946 0958, +1 (415) 555-0132, +4915112345678).
  international_phone: new RegExp(String.raw`(?<![\w+])\+(?=(?:[-. ()]*\d){8,15}(?![-. ()]*\d))[1-9]\d{0,2}(?:[-. ]?(?:\(\d{1,4}\)|\d{1,4}))+${END}`, 'g'),
};

export interface PiiMatch {
  kind: PiiKind;
  start: number;
  end: number;
}

/** Every piece of personal data in `text`, in order; where two kinds overlap the longer match wins. */
export function findPii(text: string, kinds: readonly PiiKind[] = PII_KINDS): PiiMatch[] {
  const all = kinds.flatMap((kind) => [...text.matchAll(PATTERNS[kind])].map((m) => ({ kind, start: m.index, end: m.index + m[0].length })));
  all.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: PiiMatch[] = [];
  for (const match of all) {
    const last = kept.at(-1);
    if (last && match.start < last.end) continue;
    kept.push(match);
  }
  return kept;
}

/** Digits and letters become `*`; separators, `@` and the mail domain stay, so the shape is still readable. */
function maskValue(kind: PiiKind, value: string): string {
  if (kind === 'email') {
    const at = value.indexOf('@');
    return '*'.repeat(at) + value.slice(at);
  }
  return value.replace(/[0-9]/g, '*');
}

/** `text` with the personal data of `kinds` masked. */
export function maskPii(text: string, kinds: readonly PiiKind[]): string {
  let result = '';
  let from = 0;
  for (const match of findPii(text, kinds)) {
    result += text.slice(from, match.start) + maskValue(match.kind, text.slice(match.start, match.end));
    from = match.end;
  }
  return result + text.slice(from);
}

export interface PiiVerdict {
  /** Kinds found that the tenant blocks: the send is refused when any. */
  blocked: PiiKind[];
  /** Kinds found that the tenant masks. */
  masked: PiiKind[];
}

/** What a tenant's settings do to `text`: the kinds found, by what happens to them (each kind once). */
export function piiVerdict(text: string, settings: PiiSettings): PiiVerdict {
  const active = PII_KINDS.filter((kind) => settings[kind] !== 'off');
  const found = new Set(findPii(text, active).map((match) => match.kind));
  return {
    blocked: PII_KINDS.filter((kind) => found.has(kind) && settings[kind] === 'block'),
    masked: PII_KINDS.filter((kind) => found.has(kind) && settings[kind] === 'mask'),
  };
}
