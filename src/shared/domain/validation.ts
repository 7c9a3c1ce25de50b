import { EMAIL_MAX_EXCLUSIVE, PASSWORD_MIN } from './account';

/** Validation rules of spec §5, shared by forms and the server. Results are i18n keys. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ValidationKey =
  | 'validation.required'
  | 'validation.email_invalid'
  | 'validation.email_too_long'
  | 'validation.password_too_short'
  | 'validation.password_weak'
  | 'validation.password_common';

export function validateEmail(value: string): ValidationKey | null {
  const email = value.trim();
  if (!email) return 'validation.required';
  if (email.length >= EMAIL_MAX_EXCLUSIVE) return 'validation.email_too_long';
  if (!EMAIL_PATTERN.test(email)) return 'validation.email_invalid';
  return null;
}

/**
 * The rule for a NEW password (sign-up, reset, change, invitation): at least `minLength` characters
 * (spec §5's 8, or the tenant's higher minimum) with letters, numbers and special characters. The
 * server also refuses the most common passwords (`validation.password_common`, server side only).
 * Never applied to a password being signed in with: an old password stays valid until changed.
 */
export function validatePassword(value: string, minLength: number = PASSWORD_MIN): ValidationKey | null {
  if (!value) return 'validation.required';
  if (value.length < Math.max(PASSWORD_MIN, minLength)) return 'validation.password_too_short';
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value) || !/[^A-Za-z0-9]/.test(value)) return 'validation.password_weak';
  return null;
}
