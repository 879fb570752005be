import type { TBillingCycle } from '../../../contract/plans.ts';

const DAY_MS = 24 * 60 * 60_000;

/** Days a lapsed subscription keeps its plan before it falls back to free. */
export const GRACE_DAYS = 7;
/** Days before a manual renewal is due that the user is reminded and may pay it. */
export const RENEWAL_WINDOW_DAYS = 7;

export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

/**
 * The same day and time `months` on, in UTC. A day the month lacks becomes its last day
 * (31 January → 28 February), as gateways bill; always counted from `date`, so it never drifts.
 */
export function addMonths(date: Date, months: number): Date {
  const end = new Date(date.getTime());
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return end;
}

/** The end of a period that starts at `start`: a month or a year on. */
export function periodEnd(start: Date, cycle: TBillingCycle): Date {
  return addMonths(start, cycle === 'yearly' ? 12 : 1);
}

/**
 * The month of a paid period that `at` falls in. Plans are priced per month ("5,000 documents a
 * month"), so a yearly period counts its documents month by month from its start.
 */
export function quotaMonth(periodStart: Date, at: Date): { start: Date; end: Date } {
  let months = Math.max(0, (at.getUTCFullYear() - periodStart.getUTCFullYear()) * 12 + at.getUTCMonth() - periodStart.getUTCMonth() - 1);
  while (addMonths(periodStart, months + 1).getTime() <= at.getTime()) months++;
  return { start: addMonths(periodStart, months), end: addMonths(periodStart, months + 1) };
}

/** The share of [start, end) still ahead of `now`, from 0 to 1. */
export function unusedShare(start: Date, end: Date, now: Date): number {
  const total = end.getTime() - start.getTime();
  if (total <= 0) return 0;
  return Math.min(1, Math.max(0, (end.getTime() - now.getTime()) / total));
}

/** The calendar month (UTC) that free accounts count their quota in. */
export function calendarMonth(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}
