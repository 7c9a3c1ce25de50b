import type { AppDeps } from '../../deps';
import type { z } from 'zod';
import type { inquiryBodySchema } from '../../../shared/api/inquiries';
import type { MemberRow, TenantRow } from '../../db/rows';
import { inquiries } from '../../db/schema';

export type InquiryDeps = Pick<AppDeps, 'db' | 'mail' | 'limiter' | 'config'>;

const HOUR_MS = 60 * 60_000;

/**
 * Keeps a member's inquiry and mails it to the tenant's support address (else SUPPORT_EMAIL), in
 * the member's language: the text is theirs, and so is the language support answers in. The mail
 * is written with the inquiry and sent by the mail outbox; `mailed_at` says when it was (null: no
 * address was set).
 */
export async function sendInquiry(deps: InquiryDeps, tenant: TenantRow, member: MemberRow, body: z.output<typeof inquiryBodySchema>): Promise<void> {
  await deps.limiter.rateLimit(`inquiry:${tenant.id}:${member.id}`, deps.config.INQUIRY_LIMIT_PER_HOUR, HOUR_MS);
  const supportAddress = tenant.supportEmail ?? deps.config.SUPPORT_EMAIL;
  await deps.db.transaction(async (tx) => {
    await tx.insert(inquiries).values({
      tenantId: tenant.id,
      memberId: member.id,
      inquiry: body.inquiry,
      email: body.email,
      phone: body.phone || null,
      mailedAt: supportAddress ? new Date() : null,
    });
    if (!supportAddress) return;
    const data = { tenantName: tenant.name, memberName: member.name, replyEmail: body.email, phone: body.phone ?? '', inquiry: body.inquiry };
    await deps.mail.queue(tx, tenant.id, [{ template: 'inquiryReceived', to: supportAddress, language: member.language, data }]);
  });
}
