/**
 * `sms.send(to, text)`: a text message through the configured provider. Without one it is kept in
 * the SMS outbox directory and written to the server log (like mail without SMTP), so a demo or an
 * operator can pass the code on. One real provider: Twilio's Messages API (docs/decisions/0040-sign-up.md
 * says why).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SupportedLanguage } from '../../shared/domain/language';
import type { ServerConfig } from '../config';
import type { AppDeps } from '../deps';

export interface SmsDelivery {
  via: 'outbox' | 'twilio';
  id: string;
}

export interface SmsService {
  send(to: string, text: string): Promise<SmsDelivery>;
}

/** The provider refused the message or could not be reached; callers answer 424. */
export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError';
}

interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or messaging service's sender. */
  from: string;
  /** The API origin; tests point it at a fake on loopback. */
  apiBase: string;
}

/** Twilio when all three TWILIO_* are set (the configuration refuses some of them). */
const twilioSettings = (config: ServerConfig): TwilioSettings | undefined =>
  config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM
    ? { accountSid: config.TWILIO_ACCOUNT_SID, authToken: config.TWILIO_AUTH_TOKEN, from: config.TWILIO_FROM, apiBase: config.TWILIO_API_BASE }
    : undefined;

/** Gives up on a provider that does not answer. */
const PROVIDER_TIMEOUT_MS = 10_000;

const VERIFICATION_TEXT: Record<SupportedLanguage, (code: string, minutes: number) => string> = {
  ko: (code, minutes) => `인증 코드: ${code} (${minutes}분 동안 유효)`,
  en: (code, minutes) => `Your verification code: ${code} (valid for ${minutes} minutes)`,
  zh: (code, minutes) => `您的验证码：${code}（${minutes} 分钟内有效）`,
  ja: (code, minutes) => `認証コード：${code}（${minutes}分間有効）`,
  es: (code, minutes) => `Tu código de verificación: ${code} (válido durante ${minutes} minutos)`,
};

export const verificationSms = (language: SupportedLanguage, code: string, minutes: number) => VERIFICATION_TEXT[language](code, minutes);

/** Orders this process's messages of one millisecond; the random part keeps two processes apart. */
let outboxSequence = 0;

/** Writes one outbox entry: a JSON file named by time (sorting names sorts by time), written aside and renamed. */
async function writeOutboxEntry(outboxDir: string, fields: { to: string; text: string }) {
  const createdAt = new Date();
  outboxSequence = (outboxSequence + 1) % 1_000_000;
  const id = `${createdAt.toISOString().replace(/[:.]/g, '-')}-${String(outboxSequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
  await mkdir(outboxDir, { recursive: true });
  // A reader never sees half a file.
  const partial = join(outboxDir, `.${id}.partial`);
  await writeFile(partial, JSON.stringify({ id, createdAt: createdAt.toISOString(), ...fields }, null, 2));
  await rename(partial, join(outboxDir, `${id}.json`));
  return id;
}

/** Twilio (TWILIO_*), else the outbox directory SMS_OUTBOX_DIR. */
export function createSmsService({ config, log }: Pick<AppDeps, 'config' | 'log'>): SmsService {
  const twilio = twilioSettings(config);
  const outboxDir = config.SMS_OUTBOX_DIR;
  if (!twilio) {
    return {
      async send(to, text) {
        const id = await writeOutboxEntry(outboxDir, { to, text });
        log.warn({ outboxId: id, to, text }, 'SMS kept in the outbox (no SMS provider configured)');
        return { via: 'outbox', id };
      },
    };
  }
  const url = new URL(`/2010-04-01/Accounts/${encodeURIComponent(twilio.accountSid)}/Messages.json`, twilio.apiBase);
  const authorization = `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`;
  return {
    async send(to, text) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: to, From: twilio.from, Body: text }),
          signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsDeliveryError(`SMS to ${to} could not be sent: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      const body = (await response.json().catch(() => null)) as { sid?: unknown; message?: unknown } | null;
      if (!response.ok || typeof body?.sid !== 'string') {
        throw new SmsDeliveryError(`SMS to ${to} was refused (${response.status}): ${typeof body?.message === 'string' ? body.message : 'no message'}`);
      }
      log.info({ to, sid: body.sid }, 'SMS sent');
      return { via: 'twilio', id: body.sid };
    },
  };
}
