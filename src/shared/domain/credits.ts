/** Spec §4: credits are depleted when the tenant has a remaining credit at or below 0, or the member does. */
export function isCreditsDepleted(check: { remaining_credit: number | null; tenant: { remaining_credit: number | null } }): boolean {
  const tenantRemaining = check.tenant.remaining_credit;
  if (tenantRemaining !== null && tenantRemaining <= 0) return true;
  return check.remaining_credit !== null && check.remaining_credit <= 0;
}

/** Model cost is credits per 10K input tokens; output is priced per 10K output tokens. */
export function costInCredits(
  usage: { inputTokens: number; outputTokens: number },
  price: { inputPer10k: number; outputPer10k: number },
): number {
  return (usage.inputTokens / 10_000) * price.inputPer10k + (usage.outputTokens / 10_000) * price.outputPer10k;
}
