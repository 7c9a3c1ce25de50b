/**
 * The Standard Webhooks signature scheme PortOne V2 signs its webhooks with: headers `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature` (space-separated `v1,<base64>`
 * entries), each an HMAC-SHA256 of `${id}.${timestamp}.${rawBody}` keyed by the base64 secret after
 * its `whsec_` prefix. Tests sign with `signStandardWebhook` to play the provider.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './provider';

/** Deliveries older or newer than this are refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const secretBytes = (secret: string): Buffer => Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');

export function signStandardWebhook(secret: string, id: string, timestamp: number, rawBody: string): string {
  return `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${rawBody}`).digest('base64')}`;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Returns the delivery id when one of the signatures matches and the timestamp is recent. */
export function verifyStandardWebhook(secret: string, rawBody: string, headers: Record<string, string | string[] | undefined>, now: Date): string {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook signature headers.');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - seconds) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError('The webhook timestamp is outside the tolerance.');
  }
  const expected = Buffer.from(signStandardWebhook(secret, id, seconds, rawBody));
  const matches = signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('The webhook signature does not match.');
  return id;
}
