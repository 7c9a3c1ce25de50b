import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { RestrictedWord } from '../../../shared/api/admin/security';
import type { Paginated } from '../../../shared/api/common';
import { diffFields } from '../../../shared/domain/audit';
import { PII_KINDS, PII_SETTINGS_OFF, type PiiKind, type PiiSettings, maskPii, piiVerdict } from '../../../shared/domain/pii';
import { findRestrictedWords } from '../../../shared/domain/restrictedWords';
import type { AppDeps } from '../../deps';
import { piiSettings, restrictedWords, tenants } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { createTtlCache } from '../../ttlCache';
import { type AuditActor, recordAudit } from '../auditLog/service';
import { escapeLike } from '../chatbots/service';
import { type PageRequest, paginate } from '../../shared/pagination';

/** Everything a send is checked against, per tenant. */
interface TenantInputRules {
  pii: PiiSettings;
  words: string[];
}

/** A message that passed the guard: the text to store and send, and the kinds of personal data masked in it. */
export interface GuardedText {
  text: string;
  maskedPii: PiiKind[];
}

type PiiSettingsRow = typeof piiSettings.$inferSelect;
const toPiiSettings = (row: PiiSettingsRow | undefined): PiiSettings =>
  row
    ? { phone: row.phone, email: row.email, resident_number: row.residentNumber, credit_card: row.creditCard, international_phone: row.internationalPhone }
    : PII_SETTINGS_OFF;

const toWord = (row: typeof restrictedWords.$inferSelect): RestrictedWord => ({ id: row.id, word: row.word, created_at: row.createdAt.toISOString() });

/**
 * The tenant's input rules (restricted words, personal-data settings), the check of every chat
 * send against them, and their administration. The rules are read on every send, so each process
 * keeps them as long as a tenant row, AUTH_CACHE_TTL_SECONDS (issue 6: no query per send in steady
 * state); writes made here drop the tenant's entry at once, writes of another process are seen
 * within that time.
 */
export function createInputGuard({ db, config }: Pick<AppDeps, 'db' | 'config'>) {
  const cache = createTtlCache<number, TenantInputRules>(config.AUTH_CACHE_TTL_SECONDS * 1000);

  /** One query: the settings row (absent: all off) and every word. */
  async function load(tenantId: number): Promise<TenantInputRules> {
    const [row] = await db
      .select({
        settings: piiSettings,
        words: sql<
          string[]
        >`coalesce((select array_agg(${restrictedWords.word}) from ${restrictedWords} where ${restrictedWords.tenantId} = ${tenants.id}), '{}')`,
      })
      .from(tenants)
      .leftJoin(piiSettings, eq(piiSettings.tenantId, tenants.id))
      .where(eq(tenants.id, tenantId));
    return Object.freeze({ pii: toPiiSettings(row?.settings ?? undefined), words: row?.words ?? [] });
  }
  const rules = (tenantId: number) => cache.get(tenantId, () => load(tenantId));

  /**
   * Spec §5, §8: a restricted word refuses the send (422 `restricted_term`), personal data the tenant
   * blocks refuses it (428 `pii_blocked`, naming the kinds, never the values), personal data it
   * masks is masked in what is stored and sent to the model.
   */
  async function check(tenantId: number, text: string): Promise<GuardedText> {
    const { pii, words } = await rules(tenantId);
    const terms = findRestrictedWords(text, words);
    if (terms.length > 0) throw new AppError(422, 'restricted_term', 'The message contains a restricted term.', { terms });
    const verdict = piiVerdict(text, pii);
    if (verdict.blocked.length > 0) {
      throw new AppError(428, 'pii_blocked', 'The request was blocked because it contains sensitive information.', { kinds: verdict.blocked });
    }
    return { text: verdict.masked.length > 0 ? maskPii(text, verdict.masked) : text, maskedPii: verdict.masked };
  }

  /** Any text of the send kept beside the message (a session title): every kind the tenant guards is masked. */
  async function maskAll(tenantId: number, text: string): Promise<string> {
    const { pii } = await rules(tenantId);
    return maskPii(
      text,
      PII_KINDS.filter((kind) => pii[kind] !== 'off'),
    );
  }

  async function listWords(tenantId: number, query: PageRequest & { search_term?: string }): Promise<Paginated<RestrictedWord>> {
    const where = and(
      eq(restrictedWords.tenantId, tenantId),
      query.search_term ? ilike(restrictedWords.word, `%${escapeLike(query.search_term)}%`) : undefined,
    );
    return paginate(query, {
      count: async () => (await db.select({ value: count() }).from(restrictedWords).where(where))[0]?.value ?? 0,
      rows: ({ limit, offset }) =>
        db.select().from(restrictedWords).where(where).orderBy(desc(restrictedWords.createdAt), desc(restrictedWords.id)).limit(limit).offset(offset),
      toItems: (rows) => rows.map(toWord),
    });
  }

  /** Spec §5: a word that exists already is refused (409), in any letter case, since matching ignores case. */
  async function addWord(tenantId: number, actor: AuditActor, word: string): Promise<RestrictedWord> {
    const duplicate = () => new AppError(409, 'conflict', 'This restricted word already exists.');
    const [existing] = await db
      .select({ id: restrictedWords.id })
      .from(restrictedWords)
      .where(and(eq(restrictedWords.tenantId, tenantId), sql`lower(${restrictedWords.word}) = lower(${word})`))
      .limit(1);
    if (existing) throw duplicate();
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx.insert(restrictedWords).values({ tenantId, word }).onConflictDoNothing().returning();
      if (!inserted) throw duplicate();
      await recordAudit(tx, { tenantId, actor, action: 'restricted_word.create', targetType: 'restricted_word', targetId: inserted.id, changes: { word } });
      return inserted;
    });
    cache.delete(tenantId);
    return toWord(row);
  }

  async function deleteWord(tenantId: number, actor: AuditActor, id: number): Promise<void> {
    await db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(restrictedWords)
        .where(and(eq(restrictedWords.tenantId, tenantId), eq(restrictedWords.id, id)))
        .returning({ word: restrictedWords.word });
      if (!deleted) throw notFound('The restricted word does not exist.');
      await recordAudit(tx, {
        tenantId,
        actor,
        action: 'restricted_word.delete',
        targetType: 'restricted_word',
        targetId: id,
        changes: { word: deleted.word },
      });
    });
    cache.delete(tenantId);
  }

  /** The admin page reads the row itself, not this process's copy. */
  async function readPiiSettings(tenantId: number): Promise<PiiSettings> {
    const [row] = await db.select().from(piiSettings).where(eq(piiSettings.tenantId, tenantId));
    return toPiiSettings(row);
  }

  async function updatePiiSettings(tenantId: number, actor: AuditActor, patch: Partial<PiiSettings>): Promise<PiiSettings> {
    const columns = {
      phone: patch.phone,
      email: patch.email,
      residentNumber: patch.resident_number,
      creditCard: patch.credit_card,
      internationalPhone: patch.international_phone,
    };
    const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
    const settings = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(piiSettings).where(eq(piiSettings.tenantId, tenantId)).for('update');
      const [row] = await tx
        .insert(piiSettings)
        .values({ tenantId, ...set })
        .onConflictDoUpdate({ target: piiSettings.tenantId, set: { ...set, updatedAt: new Date() } })
        .returning();
      const after = toPiiSettings(row);
      await recordAudit(tx, { tenantId, actor, action: 'pii_settings.update', targetType: 'pii_settings', changes: diffFields(toPiiSettings(before), after) });
      return after;
    });
    cache.delete(tenantId);
    return settings;
  }

  return {
    check,
    maskAll,
    piiSettings: async (tenantId: number) => (await rules(tenantId)).pii,
    readPiiSettings,
    listWords,
    addWord,
    deleteWord,
    updatePiiSettings,
  };
}

export type InputGuard = ReturnType<typeof createInputGuard>;
