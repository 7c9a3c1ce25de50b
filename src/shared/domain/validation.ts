import { EMAIL_MAX_EXCLUSIVE, PASSWORD_MIN } from './account';

/** Validation rules of spec §5, shared by forms and the server. Results are i18n keys. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ValidationKey =
  | 'validation.required'
  | 'validation.email_invalid'
  | 'validation.email_too_long'
  | 'validation.password_too_short'
  | 'validation.password_weak';

export function validateEmail(value: string): ValidationKey | null {
  const email = value.trim();
  if (!email) return 'validation.required';
  if (email.length >= EMAIL_MAX_EXCLUSIVE) return 'validation.email_too_long';
  if (!EMAIL_PATTERN.test(email)) return 'validation.email_invalid';
  return null;
}

/** At least 8 characters with letters, numbers and special characters. */
export function validatePassword(value: string): ValidationKey | null {
  if (!value) return 'validation.required';
  if (value.length < PASSWORD_MIN) return 'validation.password_too_short';
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value) || !/[^A-Za-z0-9]/.test(value)) return 'validation.password_weak';
  return null;
}
