import { FIRST_DAY, LAST_DAY } from '../../contract/dates';

/** A From / To pair of day filters, each with what is wrong with it, if anything. */
export type TDayErrors = { from?: string; to?: string };

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Why the server would refuse `day` as a filter (src/contract/dates.ts), or undefined for a day it
 * takes. A date field can hold a five-digit year, and an address anything: both are said, not
 * dropped, or the list would quietly show more than was asked for.
 */
export function dayError(day: string): string | undefined {
  if (day === '') return undefined;
  // Date.parse rolls 2026-02-30 over to March; the round trip tells a real day.
  const ms = Date.parse(`${day}T00:00:00Z`);
  const real = ISO_DAY.test(day) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day);
  if (real && day >= FIRST_DAY && day <= LAST_DAY) return undefined;
  return `“${day}” is not a date this filter takes. Use a day from ${FIRST_DAY} to ${LAST_DAY}.`;
}

/** Each of From and To checked on its own; a range given backwards is the caller's to judge. */
export function dayErrors(from: string, to: string): TDayErrors {
  const errors: TDayErrors = {};
  const fromError = dayError(from);
  const toError = dayError(to);
  if (fromError) errors.from = fromError;
  if (toError) errors.to = toError;
  return errors;
}

/** The server's own words for From and To when it refused them (its `fields`), over ours. */
export function withServerDayErrors(errors: TDayErrors, fields: Readonly<Record<string, string>>): TDayErrors {
  const merged: TDayErrors = { ...errors };
  if (fields['from']) merged.from = fields['from'];
  if (fields['to']) merged.to = fields['to'];
  return merged;
}

export const hasDayErrors = (errors: TDayErrors) => errors.from !== undefined || errors.to !== undefined;
