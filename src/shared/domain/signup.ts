/**
 * Sign-up rules shared by the form and the server (spec §5, §9), and the tenant settings that drive
 * sign-up (the spec does not show them; docs/decisions/0040-sign-up.md).
 */

/**
 * What a completed sign-up becomes: `admin` a pending request an administrator approves (sign-in
 * answers 403 until then), `auto` an approved organization member, welcomed by mail, `individual`
 * an approved individual member (no organization behind them; support instead of an administrator).
 */
export const SIGNUP_APPROVALS = ['admin', 'auto', 'individual'] as const;
export type SignupApproval = (typeof SIGNUP_APPROVALS)[number];

/** How the sign-up code reaches the member. */
export const VERIFICATION_METHODS = ['email', 'sms'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** The sign-up answer: the outcome screen the member sees. */
export const SIGNUP_OUTCOMES = ['pending', 'approved', 'registered'] as const;
export type SignupOutcome = (typeof SIGNUP_OUTCOMES)[number];

export const NAME_MIN = 2;
export const NAME_MAX = 100;
export const VERIFICATION_CODE_LENGTH = 6;
export const VERIFICATION_CODE_TTL_MINUTES = 10;
/** A new code for the same email only after this long (resend countdown). */
export const VERIFICATION_CODE_COOLDOWN_SECONDS = 60;
/** Wrong codes tried against one code before it is spent. */
export const VERIFICATION_CODE_MAX_ATTEMPTS = 5;

export type SignupValidationKey = 'signup:validation.name_length' | 'signup:validation.field_required' | 'signup:validation.field_number';

/** 2 to 100 characters after trimming. */
export function validateName(value: string): SignupValidationKey | null {
  const length = value.trim().length;
  return length < NAME_MIN || length > NAME_MAX ? 'signup:validation.name_length' : null;
}

/** A custom field's value: "{field_name} is required." and "{field_name} must be a number." (spec §5). */
export function validateCustomFieldValue(
  field: { is_required: boolean; field_type: 'text' | 'number' },
  value: string | undefined,
): SignupValidationKey | null {
  const text = value?.trim() ?? '';
  if (!text) return field.is_required ? 'signup:validation.field_required' : null;
  if (field.field_type === 'number' && !/^-?\d+(\.\d+)?$/.test(text)) return 'signup:validation.field_number';
  return null;
}

/** E.164 after dropping spaces, dashes and parentheses (+, then 8 to 15 digits), else null. */
export function normalizePhone(value: string): string | null {
  const phone = value.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(phone) ? phone : null;
}
