import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { inquiryBodySchema } from '../../shared/api/inquiries';
import type { ServerConfig } from '../config';
import type { Database } from '../db/client';
import type { MemberRow, TenantRow } from '../db/rows';
import { inquiries } from '../db/schema';
import type { MailLog, MailService } from '../mail/service';
import type { RateLimitStore } from './rateLimit';
import { createRateLimiter } from './rateLimit';

export interface InquiryDeps {
  db: Database;
  mail: MailService;
  rateLimits: RateLimitStore;
  config: Pick<ServerConfig, 'SUPPORT_EMAIL' | 'INQUIRY_LIMIT_PER_HOUR'>;
  log: MailLog;
}

const HOUR_MS = 60 * 60_000;

/**
 * Keeps a member's inquiry and mails it to the tenant's support address (else SUPPORT_EMAIL), in
 * the member's language: the text is theirs, and so is the language support answers in. The
 * inquiry is kept even when no address is set or the mail fails; `mailed_at` tells which.
 */
export async function sendInquiry(deps: InquiryDeps, tenant: TenantRow, member: MemberRow, body: z.output<typeof inquiryBodySchema>): Promise<void> {
  await createRateLimiter(deps.rateLimits).rateLimit(`inquiry:${tenant.id}:${member.id}`, deps.config.INQUIRY_LIMIT_PER_HOUR, HOUR_MS);
  const [saved] = await deps.db
    .insert(inquiries)
    .values({ tenantId: tenant.id, memberId: member.id, inquiry: body.inquiry, email: body.email, phone: body.phone || null })
    .returning({ id: inquiries.id });
  const supportAddress = tenant.supportEmail ?? deps.config.SUPPORT_EMAIL;
  if (!saved || !supportAddress) return;
  try {
    await deps.mail.send('inquiryReceived', {
      to: supportAddress,
      language: member.language,
      data: { tenantName: tenant.name, memberName: member.name, replyEmail: body.email, phone: body.phone ?? '', inquiry: body.inquiry },
    });
    await deps.db.update(inquiries).set({ mailedAt: new Date() }).where(eq(inquiries.id, saved.id));
  } catch (error) {
    deps.log.warn({ err: error, inquiryId: saved.id }, 'inquiry kept but not mailed to support');
  }
}
