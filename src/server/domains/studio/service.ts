/**
 * The Studio (issue 9): a member builds chatbots of their own. Create a draft, edit it, share it
 * with groups or ask to publish it, give it documents, test it, delete it. Only the author or an
 * admin of the tenant may change a chatbot; default chatbots only an admin.
 */
import { and, asc, eq, inArray, ne, notInArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Chatbot, ChatbotDocument, updateChatbotAccessBodySchema, updateChatbotBodySchema } from '../../../shared/api/chatbots';
import type { Database, Queryable } from '../../db/client';
import type { AppDeps } from '../../deps';
import type { ChatbotRow, MemberRow, TenantRow } from '../../db/rows';
import { categories, chatbotCategories, chatbotDocuments, chatbotMemberGroups, chatbotTools, chatbots, files, llmModels, memberGroups } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../errors';
import { availableModelIds, chatbotSelection, findVisibleChatbot, memberGroupIds, toChatbotDtos } from '../chatbots/service';
import { chatbotModelIds } from '../modelPermissions/service';
import { type FileRow, type FileServiceDeps, type UploadedPart, publicFileUrl, uploadFiles } from '../files/service';
import type { SendTarget } from '../chat/sendContext';
import { newHashId } from '../sessions/service';
import { pickableMcpTools } from '../mcpServers/service';

type UpdateBody = z.output<typeof updateChatbotBodySchema>;
type AccessBody = z.output<typeof updateChatbotAccessBodySchema>;

const modelNotAllowed = () => new AppError(403, 'model_not_allowed', 'Your member group may not use this model.');
const invalid = (message: string) => new AppError(422, 'validation_error', message);

/**
 * A chatbot `member` may change: an admin any of the tenant's, anyone else only their own (not a
 * default one). 404 when the member cannot see it (other tenants' ids too), 403 when they can see
 * it but it is not theirs.
 */
export async function findEditableChatbot(q: Queryable, member: MemberRow, id: number): Promise<ChatbotRow> {
  if (member.isAdmin) {
    const [chatbot] = await q
      .select()
      .from(chatbots)
      .where(and(eq(chatbots.tenantId, member.tenantId), eq(chatbots.id, id)));
    if (!chatbot) throw notFound();
    return chatbot;
  }
  const { chatbot } = await findVisibleChatbot(q, member, id);
  if (chatbot.isDefault || chatbot.creatorId !== member.id) throw forbidden('Only its author or an administrator may change this chatbot.');
  return chatbot;
}

/** The chatbot as the editor sees it (an admin may be editing one they would not see in lists). */
async function editedChatbot(q: Queryable, member: MemberRow, id: number): Promise<Chatbot> {
  const [row] = await chatbotSelection(q).where(and(eq(chatbots.tenantId, member.tenantId), eq(chatbots.id, id)));
  if (!row) throw notFound();
  const [dto] = await toChatbotDtos(q, member, await memberGroupIds(q, member), [row]);
  if (!dto) throw notFound();
  return dto;
}

/** `POST /chatbots/`: a chatbot of the member, a nameless draft or private with the names given, on the first model their groups may use, a full-size one before a low-tier one. */
export async function createChatbot(db: Database, member: MemberRow, names: { ko_name?: string; en_name?: string }): Promise<Chatbot> {
  const available = [...(await chatbotModelIds(db, member))];
  const [model] = available.length
    ? await db
        .select({ id: llmModels.id })
        .from(llmModels)
        .where(and(eq(llmModels.tenantId, member.tenantId), inArray(llmModels.id, available)))
        .orderBy(asc(llmModels.isLowLlm), asc(llmModels.id))
        .limit(1)
    : [];
  if (!model) throw modelNotAllowed();
  const [created] = await db
    .insert(chatbots)
    .values({ tenantId: member.tenantId, hashId: newHashId(), llmModelId: model.id, creatorId: member.id, koName: names.ko_name, enName: names.en_name })
    .returning({ id: chatbots.id });
  if (!created) throw new Error('Chatbot insert returned no row');
  return editedChatbot(db, member, created.id);
}

/** Whether a custom public link id is used by another chatbot, as its public link or its hash id (public paths take either). */
async function publicHashTaken(q: Queryable, hash: string, chatbotId: number): Promise<boolean> {
  const [row] = await q
    .select({ id: chatbots.id })
    .from(chatbots)
    .where(and(ne(chatbots.id, chatbotId), or(eq(chatbots.publicHashId, hash), eq(chatbots.hashId, hash))))
    .limit(1);
  return row !== undefined;
}

export async function checkPublicHash(db: Database, member: MemberRow, id: number, hash: string): Promise<{ is_available: boolean }> {
  const chatbot = await findEditableChatbot(db, member, id);
  return { is_available: !(await publicHashTaken(db, hash, chatbot.id)) };
}

/**
 * The chatbot's tools become `ids`. Each tool added must be one the editor may pick now (403
 * otherwise, also for another tenant's id); one already on the chatbot may stay, so a member
 * re-saving keeps the tools an admin gave it (docs/decisions/0084-chatbot-tools.md).
 */
async function checkTools(q: Queryable, member: MemberRow, chatbot: ChatbotRow, ids: number[]): Promise<void> {
  const current = await q.select({ id: chatbotTools.mcpToolId }).from(chatbotTools).where(eq(chatbotTools.chatbotId, chatbot.id));
  const kept = new Set(current.map((row) => row.id));
  const added = ids.filter((id) => !kept.has(id));
  if (added.length === 0) return;
  const pickable = new Set((await pickableMcpTools(q, member)).map((tool) => tool.id));
  if (added.some((id) => !pickable.has(id))) throw new AppError(403, 'tool_not_allowed', 'You may not give this chatbot one of these tools.');
}

async function replaceTools(q: Queryable, chatbot: ChatbotRow, ids: number[]): Promise<void> {
  await q.delete(chatbotTools).where(eq(chatbotTools.chatbotId, chatbot.id));
  if (ids.length) await q.insert(chatbotTools).values(ids.map((mcpToolId) => ({ tenantId: chatbot.tenantId, chatbotId: chatbot.id, mcpToolId })));
}

async function replaceCategories(q: Queryable, chatbot: ChatbotRow, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  const own = unique.length
    ? await q
        .select({ id: categories.id })
        .from(categories)
        .where(and(eq(categories.tenantId, chatbot.tenantId), inArray(categories.id, unique)))
    : [];
  if (own.length !== unique.length) throw invalid('A category does not exist.');
  await q.delete(chatbotCategories).where(eq(chatbotCategories.chatbotId, chatbot.id));
  if (unique.length) await q.insert(chatbotCategories).values(unique.map((categoryId) => ({ tenantId: chatbot.tenantId, chatbotId: chatbot.id, categoryId })));
}

/** The member's uploaded image made the chatbot's picture: public (an <img> sends no token) and kept. */
async function takeProfileImage(q: Queryable, member: MemberRow, chatbot: ChatbotRow, fileId: number): Promise<string> {
  const [file] = await q
    .select({ id: files.id, mimeType: files.mimeType })
    .from(files)
    .where(and(eq(files.tenantId, member.tenantId), eq(files.memberId, member.id), eq(files.id, fileId)));
  if (!file?.mimeType.startsWith('image/')) throw invalid('The picture must be an image you uploaded.');
  await q.update(files).set({ chatbotId: chatbot.id, accessLevel: 'public', shouldExpire: false, expiresAt: null }).where(eq(files.id, file.id));
  return publicFileUrl(chatbot.hashId, file.id);
}

export type StudioDeps = Pick<AppDeps, 'db' | 'store'>;

async function deleteStoredFiles({ db, store }: StudioDeps, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const removed = await db.delete(files).where(inArray(files.id, ids)).returning({ storageKey: files.storageKey });
  for (const row of removed) await store.delete(row.storageKey);
}

/** `PATCH /chatbots/{id}/`: only the fields sent change. */
export async function updateChatbot(deps: StudioDeps, member: MemberRow, id: number, body: UpdateBody): Promise<Chatbot> {
  const { db } = deps;
  const chatbot = await findEditableChatbot(db, member, id);
  // Saving the editor sends the model again: only a change is checked against the member's groups.
  if (body.llm_model_id !== undefined && body.llm_model_id !== chatbot.llmModelId && !(await chatbotModelIds(db, member)).has(body.llm_model_id)) {
    throw modelNotAllowed();
  }
  if (body.public_hash_id && (await publicHashTaken(db, body.public_hash_id, chatbot.id))) {
    throw new AppError(409, 'conflict', 'This public link is already taken.');
  }
  if (body.tool_ids !== undefined) await checkTools(db, member, chatbot, body.tool_ids);
  // A new picture (an id, or null for none); undefined leaves it as it is.
  const newPicture = body.profile_image_file_id === chatbot.profileImageFileId ? undefined : body.profile_image_file_id;
  await db.transaction(async (tx) => {
    const picture =
      newPicture === undefined
        ? {}
        : { profileImageFileId: newPicture, profileImageUrl: newPicture === null ? null : await takeProfileImage(tx, member, chatbot, newPicture) };
    await tx
      .update(chatbots)
      .set({
        ...(body.ko_name !== undefined ? { koName: body.ko_name } : {}),
        ...(body.en_name !== undefined ? { enName: body.en_name } : {}),
        ...(body.ko_key_features !== undefined ? { koKeyFeatures: body.ko_key_features } : {}),
        ...(body.en_key_features !== undefined ? { enKeyFeatures: body.en_key_features } : {}),
        ...(body.system_instructions !== undefined ? { systemInstructions: body.system_instructions } : {}),
        ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
        ...(body.top_p !== undefined ? { topP: body.top_p } : {}),
        ...(body.llm_model_id !== undefined ? { llmModelId: body.llm_model_id } : {}),
        ...(body.public_hash_id !== undefined ? { publicHashId: body.public_hash_id } : {}),
        ...(body.tool_step_limit !== undefined ? { toolStepLimit: body.tool_step_limit } : {}),
        ...picture,
        updatedAt: new Date(),
      })
      .where(eq(chatbots.id, chatbot.id));
    if (body.category_ids !== undefined) await replaceCategories(tx, chatbot, body.category_ids);
    if (body.tool_ids !== undefined) await replaceTools(tx, chatbot, body.tool_ids);
  });
  // The picture it replaced is nobody's any more.
  if (newPicture !== undefined && chatbot.profileImageFileId !== null) await deleteStoredFiles(deps, [chatbot.profileImageFileId]);
  return editedChatbot(db, member, chatbot.id);
}

/**
 * `DELETE /chatbots/{id}/`: the chatbot goes with its sessions, documents and picture (the rows
 * cascade; the stored bytes are deleted here). Anyone who had it open gets 404, the unavailable page.
 */
export async function deleteChatbot(deps: StudioDeps, member: MemberRow, id: number): Promise<void> {
  const { db } = deps;
  const chatbot = await findEditableChatbot(db, member, id);
  const documents = await db.select({ fileId: chatbotDocuments.fileId }).from(chatbotDocuments).where(eq(chatbotDocuments.chatbotId, chatbot.id));
  const fileIds = [...documents.map((row) => row.fileId), chatbot.profileImageFileId].filter((fileId): fileId is number => fileId !== null);
  await db.delete(chatbots).where(eq(chatbots.id, chatbot.id));
  await deleteStoredFiles(deps, fileIds);
}

/**
 * `PATCH /chatbots/{id}/access/` (spec §4): the groups it is shared with (replaced as sent), its
 * single category, and publishing. Asking for public waits for an admin (waiting_publish, pending;
 * a public chatbot stays public); false makes it private again. Whoever loses sight of it gets 404
 * from then on (their sessions show the unavailable page).
 */
/**
 * The groups that start with a default chatbot (`default_member_group_ids`): only a default chatbot
 * has them (422 otherwise), each a group of the tenant that sees the chatbot (422 otherwise).
 */
async function checkStartingGroups(db: Database, chatbot: ChatbotRow, visibleGroupIds: number[], given: number[] | undefined) {
  if (given === undefined) return {};
  const ids = [...new Set(given)];
  if (ids.length > 0 && !chatbot.isDefault) throw invalid('Only a default chatbot is where a group starts.');
  if (visibleGroupIds.length > 0 && ids.some((id) => !visibleGroupIds.includes(id))) throw invalid('A group that starts with the chatbot must see it.');
  const found = ids.length
    ? await db
        .select({ id: memberGroups.id })
        .from(memberGroups)
        .where(and(eq(memberGroups.tenantId, chatbot.tenantId), inArray(memberGroups.id, ids)))
    : [];
  if (found.length !== ids.length) throw invalid('A member group does not exist.');
  return { defaultMemberGroupIds: ids.sort((a, b) => a - b) };
}

export async function updateChatbotAccess(db: Database, member: MemberRow, id: number, body: AccessBody): Promise<Chatbot> {
  const chatbot = await findEditableChatbot(db, member, id);
  const groupIds = [...new Set(body.member_group_ids)];
  const groups = groupIds.length
    ? await db
        .select({ id: memberGroups.id })
        .from(memberGroups)
        .where(and(eq(memberGroups.tenantId, member.tenantId), inArray(memberGroups.id, groupIds)))
    : [];
  if (groups.length !== groupIds.length) throw invalid('A member group does not exist.');
  if ((body.is_public || groupIds.length > 0) && chatbot.koName.trim() === '' && chatbot.enName.trim() === '') {
    throw invalid('Name the chatbot before sharing it.');
  }
  const startingGroups = await checkStartingGroups(db, chatbot, groupIds, body.default_member_group_ids);
  const publishing = body.is_public
    ? chatbot.isPublic || chatbot.waitingPublish
      ? {}
      : { waitingPublish: true, publishStatus: 'pending' as const, publishRequestedAt: new Date() }
    : { isPublic: false, waitingPublish: false, publishStatus: 'none' as const, publishFeedback: null, publishRequestedAt: null };
  await db.transaction(async (tx) => {
    await tx
      .update(chatbots)
      .set({ ...publishing, ...startingGroups, updatedAt: new Date() })
      .where(eq(chatbots.id, chatbot.id));
    // Groups kept keep their row (a default chatbot's is_default_for_group flag).
    await tx
      .delete(chatbotMemberGroups)
      .where(and(eq(chatbotMemberGroups.chatbotId, chatbot.id), groupIds.length ? notInArray(chatbotMemberGroups.memberGroupId, groupIds) : undefined));
    if (groupIds.length) {
      await tx
        .insert(chatbotMemberGroups)
        .values(groupIds.map((memberGroupId) => ({ tenantId: chatbot.tenantId, chatbotId: chatbot.id, memberGroupId })))
        .onConflictDoNothing();
    }
    if (body.category_id !== undefined) await replaceCategories(tx, chatbot, body.category_id === null ? [] : [body.category_id]);
  });
  return editedChatbot(db, member, chatbot.id);
}

const toDocument = (id: number, file: FileRow, createdAt: Date): ChatbotDocument => ({
  id,
  file_id: file.id,
  name: file.name,
  size: file.sizeBytes,
  status: file.parseStatus,
  parsed_percentage: file.parsedPercentage ?? 0,
  created_at: createdAt.toISOString(),
});

/**
 * `POST /chatbots/{id}/documents/`: the checks, storage and parse job of `POST /files/` (documents
 * only, never expiring); the parse job indexes them for retrieval, and every chat with the chatbot
 * searches them (domains/chat/sources).
 */
export async function uploadChatbotDocuments(
  deps: FileServiceDeps,
  tenant: TenantRow,
  member: MemberRow,
  id: number,
  parts: UploadedPart[],
): Promise<ChatbotDocument[]> {
  const chatbot = await findEditableChatbot(deps.db, member, id);
  const stored = await uploadFiles(deps, tenant, member, { should_expire: 'false', access_level: 'public' }, parts, { documentsOnly: true });
  return deps.db.transaction(async (tx) => {
    await tx
      .update(files)
      .set({ chatbotId: chatbot.id })
      .where(
        inArray(
          files.id,
          stored.map((file) => file.id),
        ),
      );
    const rows = await tx
      .insert(chatbotDocuments)
      .values(stored.map((file) => ({ tenantId: tenant.id, chatbotId: chatbot.id, fileId: file.id, name: file.name })))
      .returning();
    await tx.update(chatbots).set({ updatedAt: new Date() }).where(eq(chatbots.id, chatbot.id));
    return rows.map((row, index) => toDocument(row.id, stored[index] as FileRow, row.createdAt));
  });
}

/** `DELETE /chatbots/{id}/documents/{docId}/`: the document, its file and its passages (they cascade with the file). */
export async function deleteChatbotDocument(deps: StudioDeps, member: MemberRow, id: number, documentId: number): Promise<void> {
  const { db } = deps;
  const chatbot = await findEditableChatbot(db, member, id);
  const [document] = await db
    .delete(chatbotDocuments)
    .where(and(eq(chatbotDocuments.chatbotId, chatbot.id), eq(chatbotDocuments.id, documentId)))
    .returning({ fileId: chatbotDocuments.fileId });
  if (!document) throw notFound();
  await deleteStoredFiles(deps, document.fileId === null ? [] : [document.fileId]);
}

/**
 * The chatbot of a Studio test chat (`is_test`): its author or an admin tests it in any state, a
 * draft included; 403 for anyone else who can see it, 404 otherwise. The model permission is the
 * tester's, as for any send.
 */
export async function findTestTarget(db: Database, member: MemberRow, chatbotId: number): Promise<SendTarget> {
  const chatbot = await findEditableChatbot(db, member, chatbotId);
  const [model] = await db.select().from(llmModels).where(eq(llmModels.id, chatbot.llmModelId));
  if (!model) throw notFound();
  // A test chat's tools are looked up with the send (chat/tools offeredTools).
  return { chatbot, model, mayUseModel: (await availableModelIds(db, member.tenantId, await memberGroupIds(db, member))).has(model.id), mayHaveTools: true };
}
