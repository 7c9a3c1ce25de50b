import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { okSchema } from './common';

export const INQUIRY_MAX_LENGTH = 5000;

/** The contact modal (spec §2): what the member asks, and how support can answer them. */
export const inquiryBodySchema = z
  .object({
    inquiry: z.string().trim().min(1).max(INQUIRY_MAX_LENGTH),
    email: z.email().max(254),
    /** Digits with the usual separators; empty when the member gives none. */
    phone: z
      .string()
      .trim()
      .max(30)
      .regex(/^(\+?[0-9][0-9 ().-]{5,28})?$/)
      .optional(),
  })
  .strict();
export type InquiryBody = z.input<typeof inquiryBodySchema>;

export const sendInquiry = defineEndpoint({
  method: 'POST',
  path: '/inquiries/',
  access: 'member',
  errors: {},
  body: inquiryBodySchema,
  response: okSchema,
  summary: "Send the contact modal's inquiry: stored, and mailed to the tenant's support address. 429 beyond the hourly limit",
  tags: ['members'],
});
