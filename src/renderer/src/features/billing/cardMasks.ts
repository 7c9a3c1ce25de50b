/**
 * What the demo card form shows as the member types: the card number in groups of four, the expiry
 * as MM/YY. Like an input's own maxLength, a full field takes no more digits (a digit typed in the
 * middle of a full number is refused rather than pushing the last one out) and a paste is cut to fit.
 */

/** Most cards have 16 digits; American Express 15; UnionPay up to 19 (the contract takes 13 to 19). */
export function cardNumberMaxDigits(digits: string): number {
  if (/^3[47]/.test(digits)) return 15;
  if (digits.startsWith('62')) return 19;
  return 16;
}

const onlyDigits = (value: string) => value.replace(/\D/g, '');

function fitDigits(previous: string, typed: string, maxOf: (digits: string) => number): string | null {
  const before = onlyDigits(previous);
  const digits = onlyDigits(typed);
  if (digits.length <= maxOf(digits)) return digits;
  return before.length >= maxOf(before) ? null : digits.slice(0, maxOf(digits));
}

export function maskCardNumber(previous: string, typed: string): string {
  const digits = fitDigits(previous, typed, cardNumberMaxDigits);
  if (digits === null) return previous;
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1230" becomes "12/30"; the slash comes with the third digit, or stays when typed after the month. */
export function maskExpiry(previous: string, typed: string): string {
  const digits = fitDigits(previous, typed, () => 4);
  if (digits === null) return previous;
  if (digits.length > 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return digits.length === 2 && typed.includes('/') ? `${digits}/` : digits;
}
