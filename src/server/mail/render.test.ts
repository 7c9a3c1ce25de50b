import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/domain/language';
import { escapeHtml, renderMail } from './render';
import { MAIL_TEMPLATE_NAMES, type MailTemplateData } from './templates';

/** Sample data whose every value is distinctive, so a translation that drops one shows up. */
const SAMPLES: MailTemplateData = {
  verificationCode: { code: 'C0DE-1', expiresInMinutes: 17 },
  passwordReset: { name: 'NAME-2', resetUrl: 'https://x.example.test/reset?t=URL-2', expiresInMinutes: 23 },
  invitation: { tenantName: 'TENANT-3', acceptUrl: 'https://x.example.test/inv/URL-3', temporaryPassword: 'TMP-PW-3' },
  memberRequestApproved: { name: 'NAME-4', tenantName: 'TENANT-4', requestType: 'group_update', signInUrl: 'https://x.example.test/URL-4' },
  memberRequestRejected: { name: 'NAME-5', tenantName: 'TENANT-5', requestType: 'registration', reason: 'REASON-5' },
  chatbotPublishRejected: { name: 'NAME-6', chatbotName: 'BOT-6', reason: 'REASON-6' },
  inquiryReceived: { tenantName: 'TENANT-7', memberName: 'NAME-7', replyEmail: 'reply-7@x.example.test', phone: '010-7777-7777', inquiry: 'QUESTION-7' },
  membershipPaymentFailed: { name: 'NAME-8', planName: 'PLAN-8', amount: '₩8,800', nextAttemptDate: '2030-08-08', plansUrl: 'https://x.example.test/URL-8' },
  membershipEnded: { name: 'NAME-9', planName: 'PLAN-9', plansUrl: 'https://x.example.test/URL-9' },
};

describe('mail templates', () => {
  it.each(MAIL_TEMPLATE_NAMES)('%s carries every value in all five languages, in text and HTML', (name) => {
    const subjects = new Set<string>();
    for (const language of LANGUAGES) {
      const mail = renderMail(name, language, SAMPLES[name] as never);
      subjects.add(mail.subject);
      for (const value of Object.values(SAMPLES[name])) {
        if (value === 'registration' || value === 'group_update') continue;
        expect(mail.text, `${name}/${language}`).toContain(String(value));
        expect(mail.html, `${name}/${language}`).toContain(escapeHtml(String(value)));
      }
    }
    expect(subjects.size).toBe(LANGUAGES.length);
  });

  it('never turns a non-http(s) URL into a link', () => {
    expect(() => renderMail('passwordReset', 'en', { name: 'a', resetUrl: 'javascript:alert(1)', expiresInMinutes: 1 })).toThrow(/http/);
  });
});
