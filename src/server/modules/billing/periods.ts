import type { TBillingCycle, TPlanId } from '../../../contract/plans.ts';

const DAY_MS = 24 * 60 * 60_000;

/** Days a lapsed subscription keeps its plan before it falls back to free. */
export const GRACE_DAYS = 7;
/** Days before a manual renewal is due that the user is reminded and may pay it. */
export const RENEWAL_WINDOW_DAYS = 7;

export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

/**
 * The end of a period that starts at `start`: the same day and time a month or a year on, in UTC.
 * A day the next month lacks becomes its last day (31 January → 28 February), as gateways bill.
 */
export function periodEnd(start: Date, cycle: TBillingCycle): Date {
  const months = cycle === 'yearly' ? 12 : 1;
  const end = new Date(start.getTime());
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return end;
}

/** The share of [start, end) still ahead of `now`, from 0 to 1. */
export function unusedShare(start: Date, end: Date, now: Date): number {
  const total = end.getTime() - start.getTime();
  if (total <= 0) return 0;
  return Math.min(1, Math.max(0, (end.getTime() - now.getTime()) / total));
}

const TIER: Record<TPlanId, number> = { free: 0, basic: 1, premium: 2, enterprise: 3 };

/**
 * What choosing `to` means for someone on `from`:
 * - `upgrade`: a higher plan, same cycle: at once, for the rest of the period, at the difference;
 * - `new-period`: monthly to yearly on the same or a higher plan: a yearly period from now, less
 *   the unused part of the month;
 * - `downgrade`: a lower plan, or yearly to monthly: at the end of the period;
 * - `same`: nothing changes (a renewal, where renewals are paid by hand).
 */
export function planChange(
  from: { plan: TPlanId; cycle: TBillingCycle },
  to: { plan: TPlanId; cycle: TBillingCycle },
): 'upgrade' | 'new-period' | 'downgrade' | 'same' {
  const tier = TIER[to.plan] - TIER[from.plan];
  if (tier < 0) return 'downgrade';
  if (from.cycle === to.cycle) return tier === 0 ? 'same' : 'upgrade';
  return to.cycle === 'yearly' ? 'new-period' : 'downgrade';
}

/** The calendar month (UTC) that free accounts count their quota in. */
export function calendarMonth(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}
