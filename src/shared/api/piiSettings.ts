import { z } from 'zod';
import { PII_ACTIONS, PII_KINDS } from '../domain/pii';
import { defineEndpoint } from './endpoint';

export const piiActionSchema = z.enum(PII_ACTIONS);
export const piiKindSchema = z.enum(PII_KINDS);

/** What the tenant does with each kind of personal data found in chat input. */
export const piiSettingsSchema = z.object({
  phone: piiActionSchema,
  email: piiActionSchema,
  resident_number: piiActionSchema,
  credit_card: piiActionSchema,
  international_phone: piiActionSchema,
});

export const getPiiSettings = defineEndpoint({
  method: 'GET',
  path: '/pii-settings/',
  access: 'member',
  errors: {},
  response: piiSettingsSchema,
  summary: 'The tenant’s personal-data settings, so the composer can warn before sending',
  tags: ['chat'],
});
