import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { AdminLlmModel } from '../../../shared/api/admin/llmModels';
import type { LlmModel } from '../../../shared/api/llmModels';
import type { Database, Queryable } from '../../db/client';
import type { MemberRow } from '../../db/rows';
import { llmModels, memberGroups, modelGroupPermissions } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { availableModelIds, memberGroupIds, toLlmModelDto } from '../chatbots/service';
import { groupSortName } from '../memberGroups/service';

/**
 * Model permissions (spec §5): a member may use a model when one of their groups has it switched
 * on, and the unlimited model always. The chat checks it on every send (domains/chat/sendContext), the
 * Studio when a chatbot gets a model, and the admin's matrix changes it.
 */

/** Models the member may use, those kept out of chatbots left out when `forChatbot`. */
export async function memberModels(q: Queryable, member: MemberRow, { forChatbot = false } = {}): Promise<LlmModel[]> {
  const available = [...(await availableModelIds(q, member.tenantId, await memberGroupIds(q, member)))];
  if (available.length === 0) return [];
  const rows = await q
    .select()
    .from(llmModels)
    .where(and(eq(llmModels.tenantId, member.tenantId), inArray(llmModels.id, available), forChatbot ? eq(llmModels.chatbotAllowed, true) : undefined))
    .orderBy(asc(llmModels.isLowLlm), desc(llmModels.releaseDate), asc(llmModels.id));
  return rows.map((row) => toLlmModelDto(row, true));
}

/** Ids of the models a chatbot of this member may be given. */
export async function chatbotModelIds(q: Queryable, member: MemberRow): Promise<Set<number>> {
  return new Set((await memberModels(q, member, { forChatbot: true })).map((model) => model.id));
}

export async function permissionMatrix(q: Queryable, tenantId: number) {
  const groups = await q
    .select({ id: memberGroups.id, ko_name: memberGroups.koName, en_name: memberGroups.enName, is_default: memberGroups.isDefault })
    .from(memberGroups)
    .where(eq(memberGroups.tenantId, tenantId))
    .orderBy(desc(memberGroups.isDefault), asc(memberGroups.id));
  const models = await q.select().from(llmModels).where(eq(llmModels.tenantId, tenantId)).orderBy(asc(llmModels.isLowLlm), asc(llmModels.id));
  const permitted = await q
    .select({ modelId: modelGroupPermissions.llmModelId, groupId: modelGroupPermissions.memberGroupId })
    .from(modelGroupPermissions)
    .where(and(eq(modelGroupPermissions.tenantId, tenantId), eq(modelGroupPermissions.isAvailable, true)));
  const allGroupIds = groups.map((group) => group.id);
  return {
    groups,
    models: models.map((model): AdminLlmModel => ({
      ...toLlmModelDto(model, true),
      provider: model.provider,
      chatbot_allowed: model.chatbotAllowed,
      available_group_ids: model.isUnlimited ? allGroupIds : permitted.filter((row) => row.modelId === model.id).map((row) => row.groupId),
    })),
  };
}

/** Switches a model on or off for a group; 404 for another tenant's ids, 422 for the unlimited model. */
export async function setPermission(db: Database, tenantId: number, actor: AuditActor, modelId: number, groupId: number, isAvailable: boolean) {
  return db.transaction(async (tx) => {
    const [model] = await tx
      .select()
      .from(llmModels)
      .where(and(eq(llmModels.tenantId, tenantId), eq(llmModels.id, modelId)));
    const [group] = await tx
      .select({ id: memberGroups.id, name: groupSortName })
      .from(memberGroups)
      .where(and(eq(memberGroups.tenantId, tenantId), eq(memberGroups.id, groupId)));
    if (!model || !group) throw notFound();
    if (model.isUnlimited) {
      // Nothing is written: the unlimited model is on for every group whatever the matrix says.
      if (isAvailable) return { model_id: modelId, member_group_id: groupId, is_available: true };
      throw new AppError(422, 'model_locked', 'The unlimited model stays available to every group.');
    }
    const [previous] = await tx
      .select({ isAvailable: modelGroupPermissions.isAvailable })
      .from(modelGroupPermissions)
      .where(and(eq(modelGroupPermissions.llmModelId, modelId), eq(modelGroupPermissions.memberGroupId, groupId)));
    await tx
      .insert(modelGroupPermissions)
      .values({ tenantId, llmModelId: modelId, memberGroupId: groupId, isAvailable })
      .onConflictDoUpdate({ target: [modelGroupPermissions.llmModelId, modelGroupPermissions.memberGroupId], set: { isAvailable } });
    await recordAudit(tx, {
      tenantId,
      actor,
      action: 'model_permission.update',
      targetType: 'model_permission',
      targetId: `${modelId}/${groupId}`,
      changes: { model: model.name, member_group: group.name, is_available: { from: previous?.isAvailable ?? false, to: isAvailable } },
    });
    return { model_id: modelId, member_group_id: groupId, is_available: isAvailable };
  });
}
