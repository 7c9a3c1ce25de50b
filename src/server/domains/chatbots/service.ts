import { type Placeholder, type SQL, type SQLWrapper, and, asc, desc, eq, exists, ilike, inArray, notExists, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Chatbot, chatbotListQuerySchema } from '../../../shared/api/chatbots';
import type { LlmModel } from '../../../shared/api/llmModels';
import type { Paginated } from '../../../shared/api/common';
import { type PageRequest, paginate } from '../../shared/pagination';
import type { Queryable } from '../../db/client';
import {
  categories,
  chatbotCategories,
  chatbotDocuments,
  chatbotMemberGroups,
  chatbotTools,
  chatbots,
  files,
  recentChatbots,
  llmModels,
  members,
  memberGroupLinks,
  modelGroupPermissions,
} from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { chatbotStatus } from '../../../shared/domain/chatbots';
import type { ChatbotRow, LlmModelRow, MemberRow } from '../../db/rows';
import { alias } from 'drizzle-orm/pg-core';

/** The creator of the chatbot in a correlated subquery (the outer query may join `members` itself). */
const chatbotCreator = alias(members, 'chatbot_creator');

type ChatbotListQuery = z.output<typeof chatbotListQuerySchema>;

export async function memberGroupIds(q: Queryable, member: MemberRow): Promise<number[]> {
  const rows = await q
    .select({ id: memberGroupLinks.memberGroupId })
    .from(memberGroupLinks)
    .where(and(eq(memberGroupLinks.tenantId, member.tenantId), eq(memberGroupLinks.memberId, member.id)));
  return rows.map((row) => row.id);
}

/** Whose view: a member row, or placeholders of a prepared statement (domains/chat/sendContext). */
export type Viewer = { [K in 'id' | 'tenantId']: number | Placeholder };

/**
 * Spec §6 (docs/decisions/0044-studio-and-publishing.md): a member sees a chatbot of their tenant when
 * they created it, when it is public (the whole tenant), when it is shared with one of their groups
 * (given as ids, or as a subquery selecting them), or when it is a default chatbot without group
 * rows. Nothing else: a draft or private chatbot is its author's alone. A deactivated member's
 * chatbots are nobody's until the member is reactivated (spec §4 account).
 */
export function visibleTo(q: Queryable, member: Viewer, groupIds: number[] | SQLWrapper): SQL {
  const groupRows = (extra?: SQL) =>
    q
      .select({ one: sql`1` })
      .from(chatbotMemberGroups)
      .where(and(eq(chatbotMemberGroups.chatbotId, chatbots.id), extra));
  const creatorDeactivated = q
    .select({ one: sql`1` })
    .from(chatbotCreator)
    .where(and(eq(chatbotCreator.id, chatbots.creatorId), eq(chatbotCreator.status, 'deactivated')));
  return and(
    eq(chatbots.tenantId, member.tenantId),
    notExists(creatorDeactivated),
    or(
      eq(chatbots.creatorId, member.id),
      eq(chatbots.isPublic, true),
      exists(groupRows(inArray(chatbotMemberGroups.memberGroupId, groupIds))),
      and(eq(chatbots.isDefault, true), notExists(groupRows())),
    ),
  ) as SQL;
}

/** Models the member's groups may use; the unlimited model can never be disabled (spec §5). */
export async function availableModelIds(q: Queryable, tenantId: number, groupIds: number[]): Promise<Set<number>> {
  const permitted = await q
    .select({ id: modelGroupPermissions.llmModelId })
    .from(modelGroupPermissions)
    .where(
      and(eq(modelGroupPermissions.tenantId, tenantId), eq(modelGroupPermissions.isAvailable, true), inArray(modelGroupPermissions.memberGroupId, groupIds)),
    );
  const unlimited = await q
    .select({ id: llmModels.id })
    .from(llmModels)
    .where(and(eq(llmModels.tenantId, tenantId), eq(llmModels.isUnlimited, true)));
  return new Set([...permitted, ...unlimited].map((row) => row.id));
}

export function toLlmModelDto(model: LlmModelRow, isAvailable: boolean): LlmModel {
  return {
    id: model.id,
    name: model.name,
    display_name: model.displayName,
    is_available: isAvailable,
    is_low_llm: model.isLowLlm,
    is_unlimited: model.isUnlimited,
    context_limit: model.contextLimit,
    input_cost_per_10k: model.inputCostPer10k,
    output_cost_per_10k: model.outputCostPer10k,
    release_date: model.releaseDate,
    supports_thinking: model.supportsReasoning,
  };
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export async function toChatbotDtos(
  q: Queryable,
  member: MemberRow,
  groupIds: number[],
  rows: { chatbot: ChatbotRow; model: LlmModelRow; creatorName: string | null }[],
): Promise<Chatbot[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.chatbot.id);
  const categoryRows = await q
    .select({ chatbotId: chatbotCategories.chatbotId, id: categories.id, en_name: categories.enName, ko_name: categories.koName })
    .from(chatbotCategories)
    .innerJoin(categories, eq(categories.id, chatbotCategories.categoryId))
    .where(and(eq(chatbotCategories.tenantId, member.tenantId), inArray(chatbotCategories.chatbotId, ids)))
    .orderBy(asc(categories.sortOrder), asc(categories.id));
  const available = await availableModelIds(q, member.tenantId, groupIds);
  const sharedRows = await q
    .select({ chatbotId: chatbotMemberGroups.chatbotId, groupId: chatbotMemberGroups.memberGroupId })
    .from(chatbotMemberGroups)
    .where(and(eq(chatbotMemberGroups.tenantId, member.tenantId), inArray(chatbotMemberGroups.chatbotId, ids)))
    .orderBy(asc(chatbotMemberGroups.memberGroupId));
  const documentRows = await q
    .select({
      chatbotId: chatbotDocuments.chatbotId,
      id: chatbotDocuments.id,
      file_id: chatbotDocuments.fileId,
      name: chatbotDocuments.name,
      size: files.sizeBytes,
      status: files.parseStatus,
      parsedPercentage: files.parsedPercentage,
      createdAt: chatbotDocuments.createdAt,
    })
    .from(chatbotDocuments)
    .leftJoin(files, eq(files.id, chatbotDocuments.fileId))
    .where(and(eq(chatbotDocuments.tenantId, member.tenantId), inArray(chatbotDocuments.chatbotId, ids)))
    .orderBy(asc(chatbotDocuments.id));
  const toolRows = await q
    .select({ chatbotId: chatbotTools.chatbotId, toolId: chatbotTools.mcpToolId })
    .from(chatbotTools)
    .where(and(eq(chatbotTools.tenantId, member.tenantId), inArray(chatbotTools.chatbotId, ids)))
    .orderBy(asc(chatbotTools.mcpToolId));
  return rows.map(({ chatbot, model, creatorName }) => {
    const memberGroupIds = sharedRows.filter((row) => row.chatbotId === chatbot.id).map((row) => row.groupId);
    return {
      id: chatbot.id,
      hash_id: chatbot.hashId,
      en_name: chatbot.enName,
      ko_name: chatbot.koName,
      profile_image_url: chatbot.profileImageUrl,
      en_key_features: chatbot.enKeyFeatures,
      ko_key_features: chatbot.koKeyFeatures,
      system_instructions: chatbot.systemInstructions,
      temperature: chatbot.temperature,
      top_p: chatbot.topP,
      llm_model: toLlmModelDto(model, available.has(model.id)),
      categories: categoryRows.filter((row) => row.chatbotId === chatbot.id).map(({ id, en_name, ko_name }) => ({ id, en_name, ko_name })),
      is_public: chatbot.isPublic,
      is_default: chatbot.isDefault,
      waiting_publish: chatbot.waitingPublish,
      publish_status: chatbot.publishStatus,
      publish_feedback: chatbot.publishFeedback,
      status: chatbotStatus({ ...chatbot, sharedGroupCount: memberGroupIds.length }),
      public_hash_id: chatbot.publicHashId,
      member_group_ids: memberGroupIds,
      default_member_groups: chatbot.isDefault ? chatbot.defaultMemberGroupIds : [],
      public_queue: chatbot.waitingPublish && chatbot.publishRequestedAt ? { requested_at: chatbot.publishRequestedAt.toISOString() } : null,
      documents: documentRows
        .filter((row) => row.chatbotId === chatbot.id)
        .map((row) => ({
          id: row.id,
          file_id: row.file_id,
          name: row.name,
          size: row.size ?? 0,
          // A document whose file is gone has nothing left to parse.
          status: row.status ?? 'failed',
          parsed_percentage: row.parsedPercentage ?? 0,
          created_at: row.createdAt.toISOString(),
        })),
      tool_ids: toolRows.filter((row) => row.chatbotId === chatbot.id).map((row) => row.toolId),
      tool_step_limit: chatbot.toolStepLimit,
      message_count: chatbot.messageCount,
      token_count: chatbot.tokenCount,
      month_token_count: chatbot.monthTokenCount,
      creator: chatbot.creatorId !== null && creatorName !== null ? { id: chatbot.creatorId, name: creatorName } : null,
      created_at: chatbot.createdAt.toISOString(),
      updated_at: chatbot.updatedAt.toISOString(),
      last_chat_at: iso(chatbot.lastChatAt),
    };
  });
}

export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

const ORDERS: Record<NonNullable<ChatbotListQuery['order_by']>, SQL[]> = {
  recent: [sql`${chatbots.lastChatAt} desc nulls last`],
  'last_chat_at.desc': [sql`${chatbots.lastChatAt} desc nulls last`],
  popular: [desc(chatbots.messageCount)],
  name: [asc(chatbots.enName)],
  'created_at.desc': [desc(chatbots.createdAt)],
};

export function chatbotSelection(q: Queryable) {
  return q
    .select({ chatbot: chatbots, model: llmModels, creatorName: members.name })
    .from(chatbots)
    .innerJoin(llmModels, eq(llmModels.id, chatbots.llmModelId))
    .leftJoin(members, eq(members.id, chatbots.creatorId));
}

export type ChatbotSelectionRow = Awaited<ReturnType<ReturnType<typeof chatbotSelection>['where']>>[number];

/** A page of the chatbots `where` selects, in `order`, as `toItems` shows them: the member's list and the admin's. */
export function paginateChatbots<Item>(
  q: Queryable,
  page: PageRequest,
  where: SQL | undefined,
  order: SQL[],
  toItems: (rows: ChatbotSelectionRow[]) => Promise<Item[]>,
): Promise<Paginated<Item>> {
  return paginate(page, {
    count: async () =>
      (
        await q
          .select({ total: sql<number>`count(*)`.mapWith(Number) })
          .from(chatbots)
          .where(where)
      )[0]?.total ?? 0,
    rows: ({ limit, offset }) =>
      chatbotSelection(q)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    toItems,
  });
}

/** The filters of spec §7 that the member's list and the admin's share. */
type SharedFilters = Pick<ChatbotListQuery, 'is_public' | 'waiting_publish' | 'creator_id' | 'category_id' | 'search_term'>;

export function chatbotFilters(q: Queryable, query: SharedFilters): (SQL | undefined)[] {
  const filters: (SQL | undefined)[] = [];
  if (query.is_public !== undefined) filters.push(eq(chatbots.isPublic, query.is_public));
  if (query.waiting_publish !== undefined) filters.push(eq(chatbots.waitingPublish, query.waiting_publish));
  if (query.creator_id !== undefined) filters.push(eq(chatbots.creatorId, query.creator_id));
  if (query.category_id !== undefined) {
    filters.push(
      exists(
        q
          .select({ one: sql`1` })
          .from(chatbotCategories)
          .where(and(eq(chatbotCategories.chatbotId, chatbots.id), eq(chatbotCategories.categoryId, query.category_id))),
      ),
    );
  }
  if (query.search_term) {
    const pattern = `%${escapeLike(query.search_term)}%`;
    filters.push(
      or(ilike(chatbots.enName, pattern), ilike(chatbots.koName, pattern), ilike(chatbots.enKeyFeatures, pattern), ilike(chatbots.koKeyFeatures, pattern)),
    );
  }
  return filters;
}

/** ORDER BY of a list: `order_by` when given, else the tenant's sort order; the id breaks ties. */
export const chatbotOrder = (orderBy: ChatbotListQuery['order_by'], first: SQL[] = []) => [
  ...first,
  ...(orderBy ? ORDERS[orderBy] : [asc(chatbots.sortOrder)]),
  asc(chatbots.id),
];

/**
 * Whose view `GET /chatbots/` lists: the caller's, or with `member_id` (spec §7) that member's, as
 * on the admin list. A member may only name themselves (403 otherwise); an admin any member of
 * the tenant (404 for an unknown one).
 */
async function listViewer(q: Queryable, caller: MemberRow, memberId: number | undefined): Promise<MemberRow> {
  if (memberId === undefined || memberId === caller.id) return caller;
  if (!caller.isAdmin) throw forbidden('Only an administrator may list what another member sees.');
  const [member] = await q
    .select()
    .from(members)
    .where(and(eq(members.tenantId, caller.tenantId), eq(members.id, memberId)));
  if (!member) throw notFound();
  return member;
}

export async function listChatbots(q: Queryable, caller: MemberRow, query: ChatbotListQuery): Promise<Paginated<Chatbot>> {
  const member = await listViewer(q, caller, query.member_id);
  const groupIds = await memberGroupIds(q, member);
  const filters: (SQL | undefined)[] = [visibleTo(q, member, groupIds), ...chatbotFilters(q, query)];
  if (!query.include_default) filters.push(eq(chatbots.isDefault, false));
  const usedAt = q
    .select({ usedAt: recentChatbots.usedAt })
    .from(recentChatbots)
    .where(and(eq(recentChatbots.memberId, member.id), eq(recentChatbots.chatbotId, chatbots.id)));
  if (query.recent) filters.push(exists(usedAt));
  const where = and(...filters);
  // Defaults first; among them, those a group of the member starts with (default_member_groups), so the dashboard and New chat open it.
  const startsWith = sql`${chatbots.defaultMemberGroupIds} && ${`{${groupIds.join(',')}}`}::integer[]`;
  const order = chatbotOrder(query.order_by, [
    ...(query.include_default ? [desc(chatbots.isDefault), desc(startsWith)] : []),
    ...(query.recent ? [sql`(${usedAt}) desc`] : []),
  ]);
  return paginateChatbots(q, query, where, order, (rows) => toChatbotDtos(q, member, groupIds, rows));
}

/** A chatbot the member may see, with its model; 404 otherwise (also for other tenants' ids). */
export async function findVisibleChatbot(q: Queryable, member: MemberRow, id: number) {
  const groupIds = await memberGroupIds(q, member);
  const [row] = await chatbotSelection(q).where(and(eq(chatbots.id, id), visibleTo(q, member, groupIds)));
  if (!row) throw notFound();
  return { ...row, groupIds };
}

export async function getChatbot(q: Queryable, member: MemberRow, id: number): Promise<Chatbot> {
  const row = await findVisibleChatbot(q, member, id);
  const [dto] = await toChatbotDtos(q, member, row.groupIds, [row]);
  if (!dto) throw notFound();
  return dto;
}
