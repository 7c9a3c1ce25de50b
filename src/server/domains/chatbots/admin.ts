/**
 * The admin's publishing review (spec §4, §7): every member chatbot of the tenant, whoever may see
 * it, with the filters of spec §7; approving makes a waiting chatbot public in the Store, rejecting
 * keeps it private with the admin's reason, mailed to its author in the author's language.
 */
import type { AppDeps } from '../../deps';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminChatbot, adminChatbotListQuerySchema, publishDecisionSchema } from '../../../shared/api/admin/chatbots';
import type { Paginated } from '../../../shared/api/common';
import { chatbotName } from '../../../shared/domain/chatbots';
import type { Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { chatbotMemberGroups, chatbots, memberGroups, members } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import {
  type ChatbotSelectionRow,
  chatbotFilters,
  chatbotOrder,
  chatbotSelection,
  memberGroupIds,
  paginateChatbots,
  toChatbotDtos,
  visibleTo,
} from './service';
import { recordAudits } from '../auditLog/service';

type ListQuery = z.output<typeof adminChatbotListQuerySchema>;
type Decision = z.output<typeof publishDecisionSchema>;

export type PublishingDeps = Pick<AppDeps, 'db' | 'mail'>;

async function toAdminChatbots(q: Queryable, admin: MemberRow, rows: ChatbotSelectionRow[]): Promise<AdminChatbot[]> {
  const dtos = await toChatbotDtos(q, admin, await memberGroupIds(q, admin), rows);
  if (dtos.length === 0) return [];
  const ids = dtos.map((dto) => dto.id);
  const creatorIds = dtos.flatMap((dto) => (dto.creator ? [dto.creator.id] : []));
  const emails = creatorIds.length ? await q.select({ id: members.id, email: members.email }).from(members).where(inArray(members.id, creatorIds)) : [];
  const groups = await q
    .select({ chatbotId: chatbotMemberGroups.chatbotId, id: memberGroups.id, ko_name: memberGroups.koName, en_name: memberGroups.enName })
    .from(chatbotMemberGroups)
    .innerJoin(memberGroups, eq(memberGroups.id, chatbotMemberGroups.memberGroupId))
    .where(inArray(chatbotMemberGroups.chatbotId, ids));
  return dtos.map((dto) => ({
    ...dto,
    creator_email: emails.find((row) => row.id === dto.creator?.id)?.email ?? null,
    member_groups: groups.filter((row) => row.chatbotId === dto.id).map(({ id, ko_name, en_name }) => ({ id, ko_name, en_name })),
  }));
}

export async function listAdminChatbots(q: Queryable, admin: MemberRow, query: ListQuery): Promise<Paginated<AdminChatbot>> {
  const filters = [eq(chatbots.tenantId, admin.tenantId), eq(chatbots.isDefault, query.is_default ?? false), ...chatbotFilters(q, query)];
  if (query.publish_rejected !== undefined)
    filters.push(query.publish_rejected ? eq(chatbots.publishStatus, 'rejected') : sql`${chatbots.publishStatus} <> 'rejected'`);
  if (query.member_id !== undefined) {
    const [member] = await q
      .select()
      .from(members)
      .where(and(eq(members.tenantId, admin.tenantId), eq(members.id, query.member_id)));
    if (!member) throw notFound();
    filters.push(visibleTo(q, member, await memberGroupIds(q, member)));
  }
  const where = and(...filters);
  // The publish queue oldest request first (public_queue); default chatbots in the tenant's order; else newest first.
  const order =
    query.waiting_publish && !query.order_by
      ? [asc(chatbots.publishRequestedAt), asc(chatbots.id)]
      : chatbotOrder(query.order_by ?? (query.is_default ? undefined : 'created_at.desc'));
  return paginateChatbots(q, query, where, order, (rows) => toAdminChatbots(q, admin, rows));
}

const reasonRequired = () => new AppError(422, 'reason_required', 'Please provide a reason for the requester.');

/**
 * Decides the publish requests of `ids`, all or none: 404 when one is not a waiting chatbot of the
 * tenant. A rejection's mail to the author is written with the decision and sent after it by the
 * mail outbox; a mail that fails does not undo it (the author also sees the reason in the Studio).
 */
async function decide(deps: PublishingDeps, admin: MemberRow, ids: number[], decision: Decision): Promise<number> {
  const reason = decision.reason?.trim() ?? '';
  if (!decision.approve && reason === '') throw reasonRequired();
  const unique = [...new Set(ids)];
  const decided = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(chatbots)
      .set(
        decision.approve
          ? { isPublic: true, waitingPublish: false, publishStatus: 'approved', publishFeedback: null, publishRequestedAt: null, updatedAt: new Date() }
          : { waitingPublish: false, publishStatus: 'rejected', publishFeedback: reason, publishRequestedAt: null, updatedAt: new Date() },
      )
      .where(and(eq(chatbots.tenantId, admin.tenantId), inArray(chatbots.id, unique), eq(chatbots.waitingPublish, true)))
      .returning({ id: chatbots.id, koName: chatbots.koName, enName: chatbots.enName, creatorId: chatbots.creatorId });
    // Throwing rolls the whole decision back: none of the chatbots changes.
    if (rows.length !== unique.length) throw notFound();
    const status = { from: 'pending', to: decision.approve ? 'approved' : 'rejected' };
    await recordAudits(
      tx,
      rows.map((row) => ({
        tenantId: admin.tenantId,
        actor: admin,
        action: 'chatbot.publish_decision' as const,
        targetType: 'chatbot',
        targetId: row.id,
        changes: { name: row.enName || row.koName, publish_status: status, ...(decision.approve ? {} : { reason }) },
      })),
    );
    if (!decision.approve) await mailRejections(deps, tx, admin.tenantId, rows, reason);
    return rows;
  });
  return decided.length;
}

async function mailRejections(
  deps: PublishingDeps,
  tx: Queryable,
  tenantId: number,
  rejected: { id: number; koName: string; enName: string; creatorId: number | null }[],
  reason: string,
) {
  const authorIds = rejected.flatMap((row) => (row.creatorId === null ? [] : [row.creatorId]));
  if (authorIds.length === 0) return;
  const authors = await tx.select().from(members).where(inArray(members.id, authorIds));
  const mails = rejected.flatMap((chatbot) => {
    const author = authors.find((row) => row.id === chatbot.creatorId);
    if (!author) return [];
    const name = chatbotName({ ko_name: chatbot.koName, en_name: chatbot.enName }, author.language) || `#${chatbot.id}`;
    return [
      { template: 'chatbotPublishRejected' as const, to: author.email, language: author.language, data: { name: author.name, chatbotName: name, reason } },
    ];
  });
  await deps.mail.queue(tx, tenantId, mails);
}

export async function processPublishRequest(deps: PublishingDeps, admin: MemberRow, id: number, decision: Decision): Promise<AdminChatbot> {
  await decide(deps, admin, [id], decision);
  const rows = await chatbotSelection(deps.db).where(and(eq(chatbots.tenantId, admin.tenantId), eq(chatbots.id, id)));
  const [chatbot] = await toAdminChatbots(deps.db, admin, rows);
  if (!chatbot) throw notFound();
  return chatbot;
}

export async function bulkProcessPublishRequests(deps: PublishingDeps, admin: MemberRow, ids: number[], decision: Decision): Promise<{ processed: number }> {
  return { processed: await decide(deps, admin, ids, decision) };
}
