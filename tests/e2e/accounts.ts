import { expect, type APIRequestContext } from '@playwright/test';
import type { MailTemplateName } from '../../src/server/mail/templates';
import { type SavedMail, mailbox } from './mailbox';

/** The password of the accounts registered here. */
export const PASSWORD = 'Signup!Kq2345';

/** The newest mail of `template` to `to`, once it has been written. */
export async function mailTo(to: string, template: MailTemplateName): Promise<SavedMail> {
  let mail: SavedMail | undefined;
  await expect
    .poll(async () => {
      mail = (await mailbox({ limit: 50 })).find((entry) => entry.to === to && entry.template === template);
      return mail !== undefined;
    })
    .toBe(true);
  return mail!;
}

/** A visitor signs up through the API (code from the mail) and waits for approval: a new registration request. */
export async function registerPending(request: APIRequestContext, name: string, language: 'en' | 'es' = 'en'): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Date.now().toString(36)}@example.test`;
  expect((await request.post('/api/v1/auth/code/', { data: { email, language, method: 'email' } })).ok()).toBe(true);
  const code = /\b\d{6}\b/.exec((await mailTo(email, 'verificationCode')).text)![0];
  const fields = (await (await request.get('/api/v1/custom-fields/')).json()) as { items: { id: number; field_name: string }[] };
  const policies = (await (await request.get('/api/v1/policies/')).json()) as { items: { id: number; is_mandatory: boolean }[] };
  const groups = (await (await request.get('/api/v1/member-groups/?is_default=true')).json()) as { items: { id: number }[] };
  const signedUp = await request.post('/api/v1/auth/sign-up/', {
    data: {
      email,
      password: PASSWORD,
      name,
      language,
      auth_code: code,
      custom_fields: fields.items.filter((field) => field.field_name === 'Department').map((field) => ({ custom_field_id: field.id, value: 'Research' })),
      default_member_group_id: groups.items[0]!.id,
      agreements: policies.items.filter((policy) => policy.is_mandatory).map((policy) => policy.id),
    },
  });
  expect(await signedUp.json()).toMatchObject({ outcome: 'pending' });
  return email;
}
