import { createHash, randomBytes } from 'node:crypto';
import { type SQL, and, desc, eq, gt, gte, ilike, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ApiKey, ApiKeyStatus, apiKeyListQuerySchema, createApiKeyBodySchema, CreatedApiKey, updateApiKeyBodySchema } from '../../../shared/api/apiKeys';
import type { Paginated } from '../../../shared/api/common';
import { API_KEY_PREFIX, API_KEY_VISIBLE_CHARS } from '../../../shared/domain/apiKeys';
import type { Database, Queryable } from '../../db/client';
import { retryOnLostConnection } from '../../db/connectionRetry';
import type { ApiKeyRow, ChatbotRow, MemberRow, TenantRow } from '../../db/rows';
import { apiKeyChatbots, apiKeys, chatbots, members, usageRecords } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { escapeLike, memberGroupIds, visibleTo } from '../chatbots/service';
import { paginate } from '../../shared/pagination';

type ListQuery = z.output<typeof apiKeyListQuerySchema>;
type CreateBody = z.output<typeof createApiKeyBodySchema>;
type UpdateBody = z.output<typeof updateApiKeyBodySchema>;

/**
 * Keys are 32 random bytes (256 bits), so a plain SHA-256 is enough to store them: a slow hash
 * (argon2) protects guessable secrets such as passwords against brute force, but nobody can
 * enumerate 2^256 keys, and a fast hash lets every API call find its key by an indexed equality.
 */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + API_KEY_VISIBLE_CHARS), hash: hashApiKey(key) };
}

const MONTH_START = sql`date_trunc('month', now())`;

function keyStatus(row: Pick<ApiKeyRow, 'revokedAt' | 'expiresAt'>, now = new Date()): ApiKeyStatus {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

/** A key's row, its chatbots and this month's usage, as the owner's list shows it. */
async function toApiKeys(q: Queryable, rows: ApiKeyRow[]): Promise<ApiKey[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const linked = await q
    .select({ keyId: apiKeyChatbots.apiKeyId, id: chatbots.id, hashId: chatbots.hashId, koName: chatbots.koName, enName: chatbots.enName })
    .from(apiKeyChatbots)
    .innerJoin(chatbots, eq(chatbots.id, apiKeyChatbots.chatbotId))
    .where(inArray(apiKeyChatbots.apiKeyId, ids))
    .orderBy(chatbots.id);
  // A request is one answer: web search rows of the same answer share its message id.
  const usage = await q
    .select({
      keyId: usageRecords.apiKeyId,
      requests: sql<number>`count(distinct ${usageRecords.messageId})`.mapWith(Number),
      credits: sql<number>`coalesce(sum(${usageRecords.credits}), 0)`.mapWith(Number),
    })
    .from(usageRecords)
    .where(and(inArray(usageRecords.apiKeyId, ids), gte(usageRecords.createdAt, MONTH_START)))
    .groupBy(usageRecords.apiKeyId);
  return rows.map((row) => {
    const used = usage.find((u) => u.keyId === row.id);
    return {
      id: row.id,
      name: row.name,
      key_prefix: row.keyPrefix,
      chatbots: linked
        .filter((link) => link.keyId === row.id)
        .map((link) => ({ id: link.id, hash_id: link.hashId, ko_name: link.koName, en_name: link.enName })),
      status: keyStatus(row),
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt?.toISOString() ?? null,
      expires_at: row.expiresAt?.toISOString() ?? null,
      revoked_at: row.revokedAt?.toISOString() ?? null,
      requests_this_month: used?.requests ?? 0,
      credits_this_month: used?.credits ?? 0,
    };
  });
}

const ownKeys = (member: MemberRow) => and(eq(apiKeys.tenantId, member.tenantId), eq(apiKeys.memberId, member.id));

export async function listApiKeys(db: Database, member: MemberRow, query: ListQuery): Promise<Paginated<ApiKey>> {
  const conditions: (SQL | undefined)[] = [ownKeys(member)];
  if (query.search_term) {
    const pattern = `%${escapeLike(query.search_term)}%`;
    conditions.push(or(ilike(apiKeys.name, pattern), ilike(apiKeys.keyPrefix, pattern)));
  }
  if (query.status === 'active') conditions.push(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)));
  if (query.status === 'revoked') conditions.push(or(isNotNull(apiKeys.revokedAt), lte(apiKeys.expiresAt, sql`now()`)));
  const where = and(...conditions);
  return paginate(query, {
    count: async () =>
      (
        await db
          .select({ total: sql<number>`count(*)`.mapWith(Number) })
          .from(apiKeys)
          .where(where)
      )[0]?.total ?? 0,
    rows: ({ limit, offset }) => db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(limit).offset(offset),
    toItems: (rows) => toApiKeys(db, rows),
  });
}

/** The chatbots of `ids` the member can see (spec §6); 404 when one of them is not. */
async function assertVisibleChatbots(q: Queryable, member: MemberRow, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const visible = await q
    .select({ id: chatbots.id })
    .from(chatbots)
    .where(and(inArray(chatbots.id, unique), visibleTo(q, member, await memberGroupIds(q, member))));
  if (visible.length !== unique.length) throw notFound('A chosen chatbot does not exist.');
  return unique;
}

function futureExpiry(expiresAt: string | null | undefined): Date | null {
  if (!expiresAt) return null;
  const date = new Date(expiresAt);
  if (date.getTime() <= Date.now())
    throw new AppError(400, 'validation_error', 'The expiry must be in the future.', [{ path: '/expires_at', message: 'in the past' }]);
  return date;
}

export async function createApiKey(db: Database, member: MemberRow, body: CreateBody): Promise<CreatedApiKey> {
  const chatbotIds = await assertVisibleChatbots(db, member, body.chatbot_ids);
  const expiresAt = futureExpiry(body.expires_at);
  const { key, prefix, hash } = newApiKey();
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({ tenantId: member.tenantId, memberId: member.id, name: body.name, keyPrefix: prefix, keyHash: hash, expiresAt })
      .returning();
    if (!created) throw new Error('api key insert returned no row');
    await tx.insert(apiKeyChatbots).values(chatbotIds.map((chatbotId) => ({ tenantId: member.tenantId, apiKeyId: created.id, chatbotId })));
    return created;
  });
  const [listed] = await toApiKeys(db, [row]);
  return { ...listed!, key };
}

async function findOwnKey(q: Queryable, member: MemberRow, id: number): Promise<ApiKeyRow> {
  const [row] = await q
    .select()
    .from(apiKeys)
    .where(and(ownKeys(member), eq(apiKeys.id, id)));
  if (!row) throw notFound('The API key does not exist.');
  return row;
}

export async function updateApiKey(db: Database, member: MemberRow, id: number, body: UpdateBody): Promise<ApiKey> {
  const existing = await findOwnKey(db, member, id);
  if (existing.revokedAt) throw new AppError(409, 'conflict', 'A revoked key cannot be changed.');
  const chatbotIds = body.chatbot_ids ? await assertVisibleChatbots(db, member, body.chatbot_ids) : null;
  const expiresAt = body.expires_at === undefined ? undefined : futureExpiry(body.expires_at);
  const row = await db.transaction(async (tx) => {
    if (expiresAt !== undefined) {
      // Read under a row lock: a key that expires while this runs is still caught.
      const [current] = await tx.select({ expiresAt: apiKeys.expiresAt }).from(apiKeys).where(eq(apiKeys.id, existing.id)).for('update');
      if (current?.expiresAt && current.expiresAt.getTime() <= Date.now()) {
        throw new AppError(422, 'api_key_expired', 'An expired key stays expired. Create a new key.');
      }
    }
    const changes = { ...(body.name !== undefined ? { name: body.name } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) };
    const [updated] = Object.keys(changes).length > 0 ? await tx.update(apiKeys).set(changes).where(eq(apiKeys.id, existing.id)).returning() : [existing];
    if (chatbotIds) {
      await tx.delete(apiKeyChatbots).where(eq(apiKeyChatbots.apiKeyId, existing.id));
      await tx.insert(apiKeyChatbots).values(chatbotIds.map((chatbotId) => ({ tenantId: member.tenantId, apiKeyId: existing.id, chatbotId })));
    }
    return updated!;
  });
  const [listed] = await toApiKeys(db, [row]);
  return listed!;
}

/** Revokes at once: the key's next call finds `revoked_at` set (keys are read on every call, never cached). */
export async function revokeApiKey(db: Database, member: MemberRow, id: number): Promise<ApiKey> {
  const existing = await findOwnKey(db, member, id);
  const [row] = existing.revokedAt ? [existing] : await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, existing.id)).returning();
  const [listed] = await toApiKeys(db, [row!]);
  return listed!;
}

/** An API call's key and its owner. */
export interface ApiKeyCaller {
  key: ApiKeyRow;
  member: MemberRow;
}

/** 401 in the OpenAI style: the route's error handler turns `invalid_api_key` into `authentication_error`. */
const invalidKey = (message = 'Invalid API key. Create one on the Developers page and send it as "Authorization: Bearer <key>".') =>
  new AppError(401, 'invalid_api_key', message);

/** The bearer key of an `Authorization` header, or undefined. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * Finds the key of a call in the request's tenant (another tenant's key is unknown here) and its
 * owner; 401 for an unknown, revoked or expired key or a deactivated owner. Read on every call,
 * so a revocation takes effect at once. Records `last_used_at`.
 */
export async function authenticateApiKey(db: Database, tenant: TenantRow, key: string | undefined): Promise<ApiKeyCaller> {
  if (!key || !key.startsWith(API_KEY_PREFIX) || key.length > 200) throw invalidKey();
  const [row] = await db
    .select({ key: apiKeys, member: members })
    .from(apiKeys)
    .innerJoin(members, eq(members.id, apiKeys.memberId))
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), eq(apiKeys.tenantId, tenant.id)));
  if (!row) throw invalidKey();
  const status = keyStatus(row.key);
  if (status === 'revoked') throw invalidKey('This API key has been revoked.');
  if (status === 'expired') throw invalidKey('This API key has expired.');
  if (row.member.status === 'deactivated' || row.member.status === 'rejected') throw invalidKey('The owner of this API key has been deactivated.');
  // Setting the time again is harmless: retried when the connection was lost.
  await retryOnLostConnection(() => db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.key.id)));
  return row;
}

/** The chatbots a key may call now: those it lists that its owner can still see (spec §6). */
export async function keyChatbots(db: Database, caller: ApiKeyCaller): Promise<ChatbotRow[]> {
  const rows = await db
    .select({ chatbot: chatbots })
    .from(apiKeyChatbots)
    .innerJoin(chatbots, eq(chatbots.id, apiKeyChatbots.chatbotId))
    .where(and(eq(apiKeyChatbots.apiKeyId, caller.key.id), visibleTo(db, caller.member, await memberGroupIds(db, caller.member))))
    .orderBy(chatbots.id);
  return rows.map((row) => row.chatbot);
}
