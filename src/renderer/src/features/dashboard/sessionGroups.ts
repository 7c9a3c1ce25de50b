import type { Session } from '../../../../shared/api';

/** Which heading of My chats a session is listed under, by the day of its last message. */
export type SessionPeriod = { kind: 'today' | 'yesterday' | 'previous7Days' } | { kind: 'month'; year: number; month: number };

export interface SessionGroup {
  /** Stable per period: React key and heading id. */
  key: string;
  period: SessionPeriod;
  sessions: Session[];
}

const DAY_MS = 86_400_000;
/** Midnight of the date's local day, as a day number that ignores daylight-saving shifts. */
const dayNumber = (date: Date) => Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / DAY_MS;

/** The day a session was last used: its last message, or its creation when it has none. */
const lastUsed = (session: Session) => new Date(session.last_chat_at ?? session.created_at);

export function sessionPeriod(used: Date, now: Date): SessionPeriod {
  const daysAgo = dayNumber(now) - dayNumber(used);
  if (daysAgo <= 0) return { kind: 'today' };
  if (daysAgo === 1) return { kind: 'yesterday' };
  if (daysAgo <= 7) return { kind: 'previous7Days' };
  return { kind: 'month', year: used.getFullYear(), month: used.getMonth() };
}

const periodKey = (period: SessionPeriod) => (period.kind === 'month' ? `${period.year}-${period.month + 1}` : period.kind);

/**
 * Groups the sessions (newest first, as the list answers) under Today, Yesterday, Previous 7 days,
 * then one heading per month, in the member's local time.
 */
export function groupSessionsByDate(sessions: readonly Session[], now: Date): SessionGroup[] {
  const groups = new Map<string, SessionGroup>();
  for (const session of sessions) {
    const period = sessionPeriod(lastUsed(session), now);
    const key = periodKey(period);
    const group = groups.get(key) ?? { key, period, sessions: [] };
    group.sessions.push(session);
    groups.set(key, group);
  }
  return [...groups.values()];
}
