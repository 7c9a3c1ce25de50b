/** Spec §4: credits are depleted when the tenant has a remaining credit at or below 0, or the member does. */
export function isCreditsDepleted(check: { remaining_credit: number | null; tenant: { remaining_credit: number | null } }): boolean {
  const tenantRemaining = check.tenant.remaining_credit;
  if (tenantRemaining !== null && tenantRemaining <= 0) return true;
  return check.remaining_credit !== null && check.remaining_credit <= 0;
}

/** Model cost is credits per 10K input tokens; output is priced per 10K output tokens. */
export function costInCredits(usage: { inputTokens: number; outputTokens: number }, price: { inputPer10k: number; outputPer10k: number }): number {
  return (usage.inputTokens / 10_000) * price.inputPer10k + (usage.outputTokens / 10_000) * price.outputPer10k;
}

/** The limits a send is checked against: the member's monthly quota, the group's, the tenant's pool. */
export const CREDIT_SCOPES = ['member', 'group', 'tenant'] as const;
export type CreditScope = (typeof CREDIT_SCOPES)[number];

/** Spec §4: the five depletion messages. */
export const DEPLETION_KINDS = ['individual', 'team', 'tenant', 'free_plan', 'chatbot_creator'] as const;
export type DepletionKind = (typeof DEPLETION_KINDS)[number];

export interface DepletionFacts {
  /** The limit that ran out (or will run out first). */
  scope: CreditScope;
  memberType: 'organization' | 'individual';
  /** The tenant's plan costs nothing. */
  freePlan: boolean;
  /** The send is paid from the chatbot creator's credits, not the sender's. */
  billedToCreator: boolean;
}

/**
 * Which depletion message applies. A chatbot paid by its creator names the creator. An individual
 * has no administrator: a free plan asks for an upgrade, any other for more credits. For an
 * organisation member the tenant's pool running dry is the tenant's message (or the free plan's),
 * and their own or their group's monthly allocation is the team's, which an administrator sets.
 */
export function depletionKind({ scope, memberType, freePlan, billedToCreator }: DepletionFacts): DepletionKind {
  if (billedToCreator) return 'chatbot_creator';
  if (memberType === 'individual') return freePlan ? 'free_plan' : 'individual';
  if (scope === 'tenant') return freePlan ? 'free_plan' : 'tenant';
  return 'team';
}

/** Spec §9 credit warnings: shares of the quota used, and "about 10 messages left". */
export const CREDIT_WARNING_SHARES = [50, 80] as const;
export const ALMOST_DEPLETED_MESSAGES = 10;

export type CreditWarning = 'used_50' | 'used_80' | 'almost_depleted' | 'depleted';

/** The strongest warning that applies to a usage figure, or null when none does. */
export function creditWarning(usage: { depleted: boolean; percentage_used: number | null; estimated_messages_left: number | null }): CreditWarning | null {
  if (usage.depleted) return 'depleted';
  if (usage.estimated_messages_left !== null && usage.estimated_messages_left <= ALMOST_DEPLETED_MESSAGES) return 'almost_depleted';
  const [half, most] = CREDIT_WARNING_SHARES;
  if (usage.percentage_used === null) return null;
  if (usage.percentage_used >= most) return 'used_80';
  if (usage.percentage_used >= half) return 'used_50';
  return null;
}

/** Spec §9: credit figures are shown rounded down to an integer (never below 0). */
export const displayCredits = (credits: number): number => Math.max(0, Math.floor(credits));

/**
 * A quota's figures as every screen shows them: usage rounded down (spec §9), and what is left as
 * the quota less that shown usage, so used + remaining = quota wherever both appear (4.51 used of
 * 5,000 reads "4" and "4,996", not "4" and "4,995"). Null remaining: no quota.
 */
export function shownCreditFigures(figures: { quota: number | null; usage: number }): { used: number; remaining: number | null } {
  const used = displayCredits(figures.usage);
  return { used, remaining: figures.quota === null ? null : Math.max(0, displayCredits(figures.quota) - used) };
}

/** The largest monthly quota an administrator can set (credits). */
export const CREDIT_QUOTA_MAX = 1_000_000_000;

/** The admin usage tables group by member group or by member. */
export const CREDIT_USAGE_GROUPINGS = ['group', 'member'] as const;

/** The admin dashboard's usage charts span at most this many months. */
export const DASHBOARD_MAX_MONTHS = 24;
