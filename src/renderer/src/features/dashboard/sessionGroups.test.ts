import { describe, expect, it } from 'vitest';
import type { Session } from '../../../../shared/api';
import { groupSessionsByDate } from './sessionGroups';

const session = (hash: string, lastChatAt: Date | null, createdAt = new Date(2020, 0, 1)): Session => ({
  id: hash.length,
  hash_id: hash,
  chatbot_id: 1,
  chatbot: { id: 1 },
  title: hash,
  is_public: false,
  creator_name: 'Ada',
  last_chat_at: lastChatAt?.toISOString() ?? null,
  created_at: createdAt.toISOString(),
});

describe('groupSessionsByDate', () => {
  // 25 November 2026, 09:00 local time.
  const now = new Date(2026, 10, 25, 9, 0);

  it('groups by the local day of the last message: today, yesterday, the 7 days before, then by month', () => {
    const groups = groupSessionsByDate(
      [
        session('early-today', new Date(2026, 10, 25, 0, 5)),
        session('late-yesterday', new Date(2026, 10, 24, 23, 55)),
        session('two-days', new Date(2026, 10, 23, 12)),
        session('seven-days', new Date(2026, 10, 18, 8)),
        session('eight-days', new Date(2026, 10, 17, 8)),
        session('october', new Date(2026, 9, 2)),
        session('last-year', new Date(2025, 9, 30)),
      ],
      now,
    );
    expect(groups.map((group) => [group.period, group.sessions.map((item) => item.hash_id)])).toEqual([
      [{ kind: 'today' }, ['early-today']],
      [{ kind: 'yesterday' }, ['late-yesterday']],
      [{ kind: 'previous7Days' }, ['two-days', 'seven-days']],
      [{ kind: 'month', year: 2026, month: 10 }, ['eight-days']],
      [{ kind: 'month', year: 2026, month: 9 }, ['october']],
      [{ kind: 'month', year: 2025, month: 9 }, ['last-year']],
    ]);
  });

  it('uses the creation day of a session without messages', () => {
    const [group] = groupSessionsByDate([session('new', null, new Date(2026, 10, 25, 8))], now);
    expect(group?.period).toEqual({ kind: 'today' });
  });
});
