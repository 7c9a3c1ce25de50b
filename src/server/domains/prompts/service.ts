import { and, asc, count, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Prompt, PromptBody, promptPatchSchema } from '../../../shared/api/prompts';
import type { adminPromptListQuerySchema } from '../../../shared/api/admin/prompts';
import { diffFields } from '../../../shared/domain/audit';
import { PERSONAL_PROMPTS_MAX, TENANT_PROMPTS_MAX, promptVariables } from '../../../shared/domain/prompts';
import type { Database, Queryable } from '../../db/client';
import { isUniqueViolation } from '../../db/databaseErrors';
import type { MemberRow } from '../../db/rows';
import { prompts } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { paginate } from '../../shared/pagination';
import { recordAudit } from '../auditLog/service';
import { escapeLike } from '../chatbots/service';

/**
 * The prompt library (issue 23). A prompt belongs to its tenant and, when personal, to its member:
 * every statement filters on both, so another tenant's or another member's prompt, and a tenant
 * prompt addressed through a member's endpoint, is simply not found (404). Admins' writes to the
 * tenant's prompts are audited; a member's own prompts are theirs and are not.
 */

type PromptRow = typeof prompts.$inferSelect;
type PatchBody = z.output<typeof promptPatchSchema>;
type AdminListQuery = z.output<typeof adminPromptListQuerySchema>;

/** Whose prompts a call works on: the tenant's (`member` null, an admin's call) or one member's. */
export type PromptOwner = { tenantId: number; member: MemberRow | null };

export const tenantOwner = (admin: MemberRow): PromptOwner => ({ tenantId: admin.tenantId, member: null });
export const personalOwner = (member: MemberRow): PromptOwner => ({ tenantId: member.tenantId, member });

const ownedBy = (owner: PromptOwner): SQL =>
  and(eq(prompts.tenantId, owner.tenantId), owner.member ? eq(prompts.memberId, owner.member.id) : isNull(prompts.memberId))!;

const byName = [asc(sql`lower(${prompts.name})`), asc(prompts.id)];

const promptNotFound = () => notFound('No such prompt.');
const nameTaken = () => new AppError(409, 'prompt_name_taken', 'Another prompt has this name.', { field: 'name' });

export function toPrompt(row: PromptRow): Prompt {
  return {
    id: row.id,
    scope: row.memberId === null ? 'tenant' : 'personal',
    name: row.name,
    text: row.text,
    variables: promptVariables(row.text),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A name in use in the scope: the unique index decides, so two writes at once get the same 409. */
async function nameUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/** GET /prompts/: the tenant's prompts then the member's own, each by name (bounded by the two limits). */
export async function listMemberPrompts(q: Queryable, member: MemberRow): Promise<Prompt[]> {
  const rows = await q
    .select()
    .from(prompts)
    .where(and(eq(prompts.tenantId, member.tenantId), or(isNull(prompts.memberId), eq(prompts.memberId, member.id))))
    .orderBy(sql`${prompts.memberId} is not null`, ...byName);
  return rows.map(toPrompt);
}

/** GET /admin/prompts/: the tenant's prompts, by name; the search matches the name or the text. */
export async function listTenantPrompts(q: Queryable, tenantId: number, query: AdminListQuery) {
  const pattern = query.search_term ? `%${escapeLike(query.search_term)}%` : null;
  const where = and(ownedBy({ tenantId, member: null }), pattern ? or(ilike(prompts.name, pattern), ilike(prompts.text, pattern)) : undefined);
  return paginate(query, {
    count: async () => (await q.select({ n: count() }).from(prompts).where(where))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      q
        .select()
        .from(prompts)
        .where(where)
        .orderBy(...byName)
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows.map(toPrompt),
  });
}

/** Adds a prompt to the owner's scope: 422 past the scope's limit, 409 for a name in use there. */
export async function createPrompt(db: Database, owner: PromptOwner, actor: MemberRow, body: PromptBody): Promise<Prompt> {
  const limit = owner.member ? PERSONAL_PROMPTS_MAX : TENANT_PROMPTS_MAX;
  const row = await nameUnique(() =>
    db.transaction(async (tx) => {
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(prompts).where(ownedBy(owner));
      if (n >= limit) throw new AppError(422, 'prompt_limit_reached', `At most ${limit} prompts.`, { limit });
      const [created] = await tx
        .insert(prompts)
        .values({ tenantId: owner.tenantId, memberId: owner.member?.id ?? null, name: body.name, text: body.text })
        .returning();
      if (!owner.member) {
        await recordAudit(tx, {
          tenantId: owner.tenantId,
          actor,
          action: 'prompt.create',
          targetType: 'prompt',
          targetId: created!.id,
          changes: { name: body.name, text: body.text },
        });
      }
      return created!;
    }),
  );
  return toPrompt(row);
}

export async function patchPrompt(db: Database, owner: PromptOwner, actor: MemberRow, id: number, body: PatchBody): Promise<Prompt> {
  const row = await nameUnique(() =>
    db.transaction(async (tx) => {
      const [prompt] = await tx
        .select()
        .from(prompts)
        .where(and(ownedBy(owner), eq(prompts.id, id)));
      if (!prompt) throw promptNotFound();
      const changes = diffFields({ name: prompt.name, text: prompt.text }, body);
      if (Object.keys(changes).length === 0) return prompt;
      const [updated] = await tx.update(prompts).set({ name: body.name, text: body.text, updatedAt: new Date() }).where(eq(prompts.id, id)).returning();
      if (!owner.member) await recordAudit(tx, { tenantId: owner.tenantId, actor, action: 'prompt.update', targetType: 'prompt', targetId: id, changes });
      return updated!;
    }),
  );
  return toPrompt(row);
}

export async function deletePrompt(db: Database, owner: PromptOwner, actor: MemberRow, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(prompts)
      .where(and(ownedBy(owner), eq(prompts.id, id)))
      .returning();
    if (!deleted) throw promptNotFound();
    if (!owner.member) {
      await recordAudit(tx, { tenantId: owner.tenantId, actor, action: 'prompt.delete', targetType: 'prompt', targetId: id, changes: { name: deleted.name } });
    }
  });
}
