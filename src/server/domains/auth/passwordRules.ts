/**
 * The rule every NEW password meets on the server (sign-up, reset, change, invitation accept, the
 * admin CLI): spec §5's letters, numbers and special characters, at least the tenant's minimum
 * length (8 unless its admin raised it), and not one of the most common passwords. Sign-in never
 * applies it: a member keeps an older password until they change it.
 */
import { createRequire } from 'node:module';
import { PASSWORD_MIN } from '../../../shared/domain/account';
import { type ValidationKey, validatePassword } from '../../../shared/domain/validation';
import { AppError } from '../../errors';

let common: Set<string> | null = null;

/**
 * The most common passwords (about 49,000, lower case) of @zxcvbn-ts/language-common, read into a
 * set once per process, on first use: the package's dictionaries are a tenth of a second and
 * 18 MiB that a server start, and most processes' lives, never need.
 */
function commonPasswords(): Set<string> {
  if (common) return common;
  const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  common = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  return common;
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i' };
const unleet = (value: string) => value.replace(/[0134579@$!]/g, (char) => LEET[char] ?? char);

/**
 * A common password dressed up to pass the character rule is still common: "Password1!",
 * "P@ssw0rd!", "qwerty123!" and "!Sunshine2024" are refused. Compared without case, as typed, with
 * the digits and symbols around it removed, and with the usual letter-for-digit swaps undone.
 */
export function isCommonPassword(password: string): boolean {
  const list = commonPasswords();
  const lower = password.toLowerCase();
  const core = lower.replace(/^[^a-z]+|[^a-z]+$/g, '');
  const candidates = [lower, unleet(lower), unleet(lower).replace(/^[^a-z]+|[^a-z]+$/g, '')];
  if (core.length >= 4) candidates.push(core);
  return candidates.some((candidate) => candidate.length >= 4 && list.has(candidate));
}

/** What is wrong with a new password for a tenant requiring `minLength`, as an i18n key; null when it is fine. */
export function newPasswordProblem(password: string, minLength: number = PASSWORD_MIN): ValidationKey | null {
  return validatePassword(password, minLength) ?? (isCommonPassword(password) ? 'validation.password_common' : null);
}

/**
 * 422 for a new password that breaks the rule: `common_password` for a common one, else `code` (the
 * endpoint's own code for the rule). The details name the reason and the tenant's minimum length.
 */
export function assertNewPassword(password: string, tenant: { passwordMinLength: number }, code: 'invalid_password' | 'validation_error'): void {
  const problem = newPasswordProblem(password, tenant.passwordMinLength);
  if (!problem) return;
  const details = { reason: problem, min_length: Math.max(PASSWORD_MIN, tenant.passwordMinLength) };
  if (problem === 'validation.password_common') throw new AppError(422, 'common_password', 'This password is too common. Choose another one.', details);
  throw new AppError(422, code, `The password needs at least ${details.min_length} characters with letters, numbers and special characters.`, details);
}
