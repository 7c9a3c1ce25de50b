import { z } from 'zod';

/** A local day `YYYY-MM-DD` that exists, as a list's period filter keeps it in the URL. */
export const DAY = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(new Date(`${value}T00:00:00`).getTime()));

/** The user's local day `YYYY-MM-DD` as the instant it starts, `days` later. */
export function dayStart(day: string, days = 0): string {
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + days);
  return date.toISOString();
}

/**
 * A period filter's `from` and `to` days as the instants the API takes: from the start of the first
 * day to the start of the day after the last; a reversed range sends no end (the page says it is
 * invalid).
 */
export function periodQuery(from: string, to: string): { from?: string; to?: string; invalid: boolean } {
  const invalid = from !== '' && to !== '' && from > to;
  return { ...(from ? { from: dayStart(from) } : {}), ...(to && !invalid ? { to: dayStart(to, 1) } : {}), invalid };
}

/** The period filter's choices: four periods counted back from today, and a range of the admin's own days. */
export const PERIOD_PRESETS = ['last_7_days', 'last_30_days', 'this_month', 'last_month'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export const PERIOD_CHOICES = [...PERIOD_PRESETS, 'custom'] as const;
export type PeriodChoice = (typeof PERIOD_CHOICES)[number];

/**
 * A list's period filter as URL parameters, to spread into its filter schema: `period` names a
 * preset (kept by name, so a saved link stays "the last 7 days") or `custom`, whose days are `from`
 * and `to`. A link with days and no `period` (made before the presets) is a custom range.
 */
export const PERIOD_FILTERS = { period: z.enum(PERIOD_CHOICES).optional(), from: DAY.optional(), to: DAY.optional() };
export type PeriodFilters = { period?: PeriodChoice; from?: string; to?: string };

/** `YYYY-MM-DD` of a local date. */
function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A preset's first and last local days, today included. */
export function presetDays(preset: PeriodPreset, today: Date): { from: string; to: string } {
  const year = today.getFullYear();
  const month = today.getMonth();
  const day = today.getDate();
  switch (preset) {
    case 'last_7_days':
      return { from: localDay(new Date(year, month, day - 6)), to: localDay(today) };
    case 'last_30_days':
      return { from: localDay(new Date(year, month, day - 29)), to: localDay(today) };
    case 'this_month':
      return { from: localDay(new Date(year, month, 1)), to: localDay(today) };
    case 'last_month':
      // Day 0 of this month is the last day of the previous one.
      return { from: localDay(new Date(year, month - 1, 1)), to: localDay(new Date(year, month, 0)) };
  }
}

/** The choice the filter shows and the days it stands for: a preset's days counted from `today`, else the URL's. */
export function resolvePeriod(filters: PeriodFilters, today: Date): { choice: PeriodChoice | null; from: string; to: string } {
  const { period, from = '', to = '' } = filters;
  if (period && period !== 'custom') return { choice: period, ...presetDays(period, today) };
  return { choice: period ?? (from || to ? 'custom' : null), from, to };
}

/** What a list's period filter stands for today: the choice it shows, its days, and the instants the API takes. */
export function listPeriod(filters: PeriodFilters, today = new Date()) {
  const resolved = resolvePeriod(filters, today);
  const { invalid, ...query } = periodQuery(resolved.from, resolved.to);
  return { ...resolved, invalid, query };
}
export type ListPeriod = ReturnType<typeof listPeriod>;
