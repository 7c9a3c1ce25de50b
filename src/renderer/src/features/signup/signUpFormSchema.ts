import { z } from 'zod';
import { signupApi, type CustomField, type Policy } from '../../../../shared/api';
import { VERIFICATION_METHODS, normalizePhone, validateCustomFieldValue, validateName } from '../../../../shared/domain/signup';
import { PASSWORD_MIN } from '../../../../shared/domain/account';
import { validateEmail, validatePassword } from '../../../../shared/domain/validation';

export interface SignUpFormValues {
  name: string;
  email: string;
  password: string;
  password_confirm: string;
  default_member_group_id: string | null;
  /** Values by custom field id. */
  custom_fields: Record<string, string>;
  /** Ids of the policies ticked. */
  agreements: number[];
  method: (typeof VERIFICATION_METHODS)[number];
  /** Where the code goes when `method` is sms. */
  phone: string;
}

/**
 * The sign-up body's own fields (shared contract) with the spec §5 rules on top: each field's
 * message is an i18n key, and a custom field's names the field (`{field_name}` comes from the form).
 */
export function signUpFormSchema(fields: readonly CustomField[], policies: readonly Policy[], { sso = false, passwordMinLength = PASSWORD_MIN } = {}) {
  return signupApi.signUpBodySchema
    .pick({ name: true })
    .extend({
      email: z.string(),
      password: z.string(),
      password_confirm: z.string(),
      default_member_group_id: z.string().nullable(),
      custom_fields: z.record(z.string(), z.string()),
      agreements: z.array(z.number()),
      method: z.enum(VERIFICATION_METHODS),
      phone: z.string(),
    })
    .superRefine((values, context) => {
      const issue = (path: (string | number)[], message: string | null) => {
        if (message) context.addIssue({ code: 'custom', path, message });
      };
      issue(['name'], values.name.trim() ? validateName(values.name) : 'validation.required');
      // With SSO the platform vouched for the email, and the member signs in there: no password, no code.
      if (!sso) {
        issue(['email'], validateEmail(values.email));
        issue(['password'], validatePassword(values.password, passwordMinLength));
        issue(
          ['password_confirm'],
          !values.password_confirm ? 'validation.required' : values.password_confirm !== values.password ? 'signup:validation.password_mismatch' : null,
        );
      }
      issue(['default_member_group_id'], values.default_member_group_id ? null : 'validation.required');
      for (const field of fields) issue(['custom_fields', String(field.id)], validateCustomFieldValue(field, values.custom_fields[String(field.id)]));
      if (!sso && values.method === 'sms')
        issue(['phone'], !values.phone.trim() ? 'validation.required' : normalizePhone(values.phone) ? null : 'signup:validation.phone_invalid');
      const missing = policies.some((policy) => policy.is_mandatory && !values.agreements.includes(policy.id));
      issue(['agreements'], missing ? 'signup:validation.policies_required' : null);
    });
}
