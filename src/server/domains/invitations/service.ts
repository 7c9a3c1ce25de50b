import type { AppDeps } from '../../deps';
import { randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, asc, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { bulkInvite, listAdminInvitations } from '../../../shared/api/admin/invitations';
import type { acceptInvitationBodySchema } from '../../../shared/api/invitations';
import { validateEmail } from '../../../shared/domain/validation';
import type { Database, Queryable, Transaction } from '../../db/client';
import type { MemberRow, TenantRow } from '../../db/rows';
import { invitations, memberGroups, members, plans } from '../../db/schema';
import { AppError } from '../../errors';
import type { OutgoingMail } from '../../mail/outbox';
import { appLink } from '../../shared/appLinks';
import { recordAudits } from '../auditLog/service';
import { hashPassword } from '../auth/service';
import { assertNewPassword } from '../auth/passwordRules';
import { paginate } from '../../shared/pagination';
import { type SignupDeps, admitInvited } from '../signup/service';

export type InvitationDeps = SignupDeps & Pick<AppDeps, 'limiter' | 'links' | 'config'>;

type InviteRow = z.output<NonNullable<typeof bulkInvite.body>>['members'][number];
type ListQuery = z.output<NonNullable<typeof listAdminInvitations.query>>;
type RowResult = 'invited' | 'invalid_email' | 'already_exists' | 'already_invited' | 'already_requested' | 'invitation_email_failed';

const normalizeEmail = (email: string) => email.trim().toLowerCase();
const notFound = () => new AppError(404, 'invitation_not_found', 'This invitation does not exist or was already used.');

/** 12 characters from an alphabet without look-alikes, with a digit and a symbol: easy to type from a mail. */
function temporaryPassword(): string {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ';
  const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;
  return `${Array.from({ length: 9 }, () => pick(letters)).join('')}${pick('23456789')}${pick('23456789')}${pick('!@#$%*')}`;
}

async function pendingInvitation(db: Database, tenant: TenantRow, hash: string) {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.tenantId, tenant.id), eq(invitations.invitationHashId, hash), eq(invitations.status, 'pending')));
  if (!row) throw notFound();
  return row;
}

/** The plan's invitation limit counts the invitations still waiting (spec §6 "Invitation count is capped by the plan"). */
export async function assertInvitationRoom(db: Queryable, tenant: TenantRow, adding: number): Promise<void> {
  const [plan] = tenant.planId ? await db.select({ limit: plans.invitationLimit }).from(plans).where(eq(plans.id, tenant.planId)) : [];
  if (plan?.limit == null) return;
  const [open] = await db
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.tenantId, tenant.id), eq(invitations.status, 'pending')));
  if ((open?.n ?? 0) + adding > plan.limit) {
    throw new AppError(402, 'invitation_limit_reached', "The plan's invitation limit would be exceeded.", {
      invitation_limit: plan.limit,
      pending: open?.n ?? 0,
    });
  }
}

/** What stops an email from being invited: a member (or their sign-up request) or a pending invitation. */
export type PriorInvitee = 'already_exists' | 'already_requested' | 'already_invited';

/** The emails (normalized) among `emails` that already have an account, a request or a pending invitation. */
export async function priorInvitees(q: Queryable, tenant: TenantRow, emails: string[]): Promise<Map<string, PriorInvitee>> {
  const prior = new Map<string, PriorInvitee>();
  if (emails.length === 0) return prior;
  const [existing, open] = await Promise.all([
    q
      .select({ email: members.email, status: members.status })
      .from(members)
      .where(and(eq(members.tenantId, tenant.id), inArray(members.email, emails))),
    q
      .select({ email: invitations.email })
      .from(invitations)
      .where(and(eq(invitations.tenantId, tenant.id), eq(invitations.status, 'pending'), inArray(invitations.email, emails))),
  ]);
  for (const { email } of open) prior.set(email, 'already_invited');
  for (const member of existing) prior.set(member.email, member.status === 'pending' ? 'already_requested' : 'already_exists');
  return prior;
}

/** An invitation about to be written: its secret parts are made (and the password hashed) before any transaction. */
export interface NewInvitation {
  email: string;
  name: string | null;
  memberGroupId: number | null;
  customFieldValues?: Array<{ customFieldId: number; value: string }>;
  ssoId?: string | null;
  hash: string;
  temporaryPassword: string;
  temporaryPasswordHash: string;
}

/**
 * Temporary passwords are random (about 58 bits) and their accept attempts are rate limited, so a
 * light argon2id is enough: the memory and time that protect a chosen password add nothing against
 * guessing a random one, and would cost a 5,000-row member upload minutes. `verify` reads the
 * parameters from the hash, so accepting works the same.
 */
const hashTemporaryPassword = (password: string) => hash(password, { memoryCost: 1024, timeCost: 1 });

export async function prepareInvitation(
  invitee: Pick<NewInvitation, 'email' | 'name' | 'memberGroupId' | 'customFieldValues' | 'ssoId'>,
): Promise<NewInvitation> {
  const password = temporaryPassword();
  return { ...invitee, hash: randomBytes(24).toString('base64url'), temporaryPassword: password, temporaryPasswordHash: await hashTemporaryPassword(password) };
}

/** The invitation mail, in the inviting admin's language: the accept link and the temporary password. */
function invitationMail(deps: Pick<InvitationDeps, 'links'>, tenant: TenantRow, admin: MemberRow, invitation: NewInvitation): OutgoingMail {
  return {
    template: 'invitation',
    to: invitation.email,
    language: admin.language,
    data: {
      tenantName: tenant.name,
      acceptUrl: appLink(deps.links, tenant, `/auth/invitation/${invitation.hash}`),
      temporaryPassword: invitation.temporaryPassword,
    },
  };
}

/** An invitation written with its mail. */
export interface CreatedInvitation {
  id: number;
  mailId: number;
}

/**
 * Writes invitations and their mails on `q` (one statement each), so the caller's transaction holds
 * them with its other rows: an invitation exists exactly when its mail, with its one temporary
 * password, does. The caller sends the mails after its commit (`mailInvitations`).
 */
export async function insertInvitations(
  deps: Pick<InvitationDeps, 'mail' | 'links'>,
  q: Queryable,
  tenant: TenantRow,
  admin: MemberRow,
  rows: NewInvitation[],
): Promise<CreatedInvitation[]> {
  if (rows.length === 0) return [];
  const created = await q
    .insert(invitations)
    .values(
      rows.map((row) => ({
        tenantId: tenant.id,
        invitationHashId: row.hash,
        email: row.email,
        name: row.name,
        temporaryPasswordHash: row.temporaryPasswordHash,
        memberGroupId: row.memberGroupId,
        customFieldValues: row.customFieldValues ?? null,
        ssoId: row.ssoId ?? null,
        invitedById: admin.id,
      })),
    )
    .returning({ id: invitations.id });
  const mailIds = await deps.mail.queue(
    q,
    tenant.id,
    rows.map((row) => invitationMail(deps, tenant, admin, row)),
    { deliverNow: true },
  );
  return created.map((row, i) => ({ id: row.id, mailId: mailIds[i]! }));
}

/**
 * Sends the mails of invitations just committed. Those the mail server refused for good are
 * withdrawn (nobody could accept them without their password): deleted and audited with the reason
 * `invitation_email_failed`, with `alsoInTransaction` in the same transaction; they are returned.
 * Mails that could not go now stay with the outbox's retries, and their invitations stay.
 */
export async function mailInvitations<T extends CreatedInvitation & { email: string }>(
  deps: Pick<InvitationDeps, 'db' | 'mail'>,
  tenant: TenantRow,
  admin: MemberRow,
  created: T[],
  alsoInTransaction: (tx: Transaction, refused: T[]) => Promise<void> = async () => {},
): Promise<T[]> {
  const outcomes = await deps.mail.deliverNow(
    created.map((invitation) => invitation.mailId),
    { retry: true },
  );
  const refused = created.filter((_, i) => outcomes[i] === 'failed');
  if (refused.length === 0) return refused;
  await deps.db.transaction(async (tx) => {
    await tx.delete(invitations).where(
      and(
        eq(invitations.tenantId, tenant.id),
        inArray(
          invitations.id,
          refused.map((invitation) => invitation.id),
        ),
      ),
    );
    await recordAudits(
      tx,
      refused.map((invitation) => ({
        tenantId: tenant.id,
        actor: admin,
        action: 'invitation.delete' as const,
        targetType: 'invitation',
        targetId: invitation.id,
        changes: { email: invitation.email, reason: 'invitation_email_failed' },
      })),
    );
    await alsoInTransaction(tx, refused);
  });
  return refused;
}

/**
 * POST /admin/invitations/bulk/: each row gets an invitation with a temporary password, mailed in
 * the inviting admin's language; rows that cannot be invited say why (spec §8 row-level errors),
 * `invitation_email_failed` when the mail server refused the address for good. The invitations,
 * their audit rows and their mails are written in one transaction, then the mails sent.
 * SSO members, who have no password of their own, cannot invite others (spec §6).
 */
export async function inviteMembers(deps: InvitationDeps, tenant: TenantRow, admin: MemberRow, rows: InviteRow[]) {
  const { db } = deps;
  assertCanInvite(admin);
  const emails = rows.map((row) => normalizeEmail(row.email));
  const valid = [...new Set(emails.filter((email) => !validateEmail(email)))];
  const [prior, groups] = await Promise.all([
    priorInvitees(db, tenant, valid),
    db.select({ id: memberGroups.id }).from(memberGroups).where(eq(memberGroups.tenantId, tenant.id)),
  ]);
  const groupIds = new Set(groups.map((group) => group.id));
  const seen = new Set<string>();
  const plan: Array<{ row: InviteRow; email: string; result: RowResult }> = rows.map((row, index) => {
    const email = emails[index]!;
    let result: RowResult = 'invited';
    if (validateEmail(email) || (row.member_group_id !== undefined && !groupIds.has(row.member_group_id))) result = 'invalid_email';
    else if (prior.has(email)) result = prior.get(email)!;
    else if (seen.has(email)) result = 'already_invited';
    seen.add(email);
    return { row, email, result };
  });
  await assertInvitationRoom(db, tenant, plan.filter((p) => p.result === 'invited').length);

  const prepared = await Promise.all(
    plan
      .filter((entry) => entry.result === 'invited')
      .map((entry) => prepareInvitation({ email: entry.email, name: entry.row.name?.trim() || null, memberGroupId: entry.row.member_group_id ?? null })),
  );
  const created = await db.transaction(async (tx) => {
    const rows = (await insertInvitations(deps, tx, tenant, admin, prepared)).map((row, i) => ({ ...row, email: prepared[i]!.email }));
    await recordAudits(
      tx,
      rows.map((row, i) => ({
        tenantId: tenant.id,
        actor: admin,
        action: 'invitation.create' as const,
        targetType: 'invitation',
        targetId: row.id,
        changes: { email: row.email, name: prepared[i]!.name, member_group_id: prepared[i]!.memberGroupId },
      })),
    );
    return rows;
  });
  const refused = new Set((await mailInvitations(deps, tenant, admin, created)).map((row) => row.email));
  const ids = new Map(created.map((row) => [row.email, row.id]));
  const results = plan.map(({ email, result }): { email: string; result: RowResult; invitation_id: number | null } => {
    if (result !== 'invited') return { email, result, invitation_id: null };
    return refused.has(email) ? { email, result: 'invitation_email_failed', invitation_id: null } : { email, result, invitation_id: ids.get(email)! };
  });
  return { results };
}

/** SSO members, who have no password of their own, cannot invite others (spec §6). */
export function assertCanInvite(admin: MemberRow): void {
  if (admin.passwordHash === null) throw new AppError(403, 'forbidden', 'Members who sign in through SSO cannot invite others.');
}

const ORDER_COLUMNS = { created_at: invitations.createdAt, email: invitations.email, name: invitations.name, status: invitations.status } as const;

/** GET /admin/invitations/: search by email or name, ordered as asked. */
export async function listInvitations(db: Database, tenant: TenantRow, query: ListQuery) {
  const term = query.search_term ? `%${query.search_term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(eq(invitations.tenantId, tenant.id), term ? or(ilike(invitations.email, term), ilike(invitations.name, term)) : undefined);
  const column = ORDER_COLUMNS[query.order_by];
  return paginate(query, {
    count: async () => (await db.select({ n: count() }).from(invitations).where(where))[0]?.n ?? 0,
    rows: ({ limit, offset }) =>
      db
        .select({
          id: invitations.id,
          email: invitations.email,
          name: invitations.name,
          member_group_id: invitations.memberGroupId,
          status: invitations.status,
          invited_by: members.email,
          createdAt: invitations.createdAt,
        })
        .from(invitations)
        .leftJoin(members, eq(members.id, invitations.invitedById))
        .where(where)
        .orderBy(query.order_type === 'asc' ? asc(column) : desc(column), desc(invitations.id))
        .limit(limit)
        .offset(offset),
    toItems: (rows) => rows.map(({ createdAt, ...row }) => ({ ...row, created_at: createdAt.toISOString() })),
  });
}

/** POST /admin/invitations/bulk/delete/: 404 when none of the ids is an invitation of the tenant (spec §8). */
export async function deleteInvitations(db: Database, tenant: TenantRow, admin: MemberRow, ids: number[]) {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(invitations)
      .where(and(eq(invitations.tenantId, tenant.id), inArray(invitations.id, ids)))
      .returning({ id: invitations.id, email: invitations.email, status: invitations.status });
    if (deleted.length === 0) throw new AppError(404, 'not_found', 'No such invitation.');
    await recordAudits(
      tx,
      deleted.map((row) => ({
        tenantId: tenant.id,
        actor: admin,
        action: 'invitation.delete' as const,
        targetType: 'invitation',
        targetId: row.id,
        changes: { email: row.email, status: row.status },
      })),
    );
    return { deleted: deleted.length };
  });
}

/** GET /invitations/:hash/verify/: what the accept page shows. */
export async function verifyInvitation(db: Database, tenant: TenantRow, hash: string) {
  const invitation = await pendingInvitation(db, tenant, hash);
  return { tenant_name: tenant.name, email: invitation.email, name: invitation.name };
}

/**
 * POST /invitations/:hash/accept/: the temporary password of the mail first (wrong ones counted per
 * invitation: 429 after SIGN_IN_EMAIL_RATE_LIMIT wrong ones within AUTH_RATE_WINDOW_SECONDS), then the sign-up rules; the member is approved at once and
 * the invitation spent in the same transaction (a second accept finds it used: 404).
 */
export async function acceptInvitation(deps: InvitationDeps, tenant: TenantRow, hash: string, body: z.output<typeof acceptInvitationBodySchema>) {
  const { db } = deps;
  const invitation = await pendingInvitation(db, tenant, hash);
  await deps.limiter.rateLimit(
    `invitation-accept:${tenant.id}:${invitation.id}`,
    deps.config.SIGN_IN_EMAIL_RATE_LIMIT,
    deps.config.AUTH_RATE_WINDOW_SECONDS * 1000,
  );
  if (!(await verify(invitation.temporaryPasswordHash, body.temporary_password))) {
    throw new AppError(401, 'wrong_temporary_password', 'The temporary password is not correct.');
  }
  if (normalizeEmail(body.email) !== invitation.email) throw new AppError(422, 'invalid_email', 'The email is not the one this invitation was sent to.');
  assertNewPassword(body.password, tenant, 'invalid_password');
  const defaultGroupId = invitation.memberGroupId ?? (await defaultGroup(db, tenant));
  const outcome = await admitInvited(
    deps,
    tenant,
    { email: invitation.email, name: body.name, language: body.language, default_member_group_id: defaultGroupId, agreements: body.agreements },
    await hashPassword(body.password),
    async (tx) => {
      const spent = await tx
        .update(invitations)
        .set({ status: 'accepted' })
        .where(and(eq(invitations.id, invitation.id), eq(invitations.status, 'pending')))
        .returning({ id: invitations.id });
      if (spent.length === 0) throw notFound();
    },
    invitation.customFieldValues ? { customFieldValues: invitation.customFieldValues, ssoId: invitation.ssoId } : null,
  );
  return { member_id: outcome.member_id, tenant_name: tenant.name };
}

async function defaultGroup(db: Database, tenant: TenantRow): Promise<number> {
  const [group] = await db
    .select({ id: memberGroups.id })
    .from(memberGroups)
    .where(and(eq(memberGroups.tenantId, tenant.id), eq(memberGroups.isDefault, true)));
  if (!group) throw new AppError(422, 'invalid_member_group', 'The workspace has no default member group.');
  return group.id;
}
