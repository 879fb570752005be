import { z } from 'zod';

/*
 * The days and instants a request may name. Each must survive every layer it meets: JavaScript's
 * Date, the server's day arithmetic (a `to` day ends at the start of the next), a UTC offset of up
 * to a day either way, and PostgreSQL, which reads only the four-digit years toISOString writes and
 * refuses year 0, negative years and years past 9999. Ending in 9998 leaves a year of margin for the
 * arithmetic and the offsets; starting at the Unix epoch keeps clear of year 0 and of Date.UTC's
 * two-digit years, and no record here is older, so an earlier day would select nothing more.
 */
export const FIRST_DAY = '1970-01-01';
export const LAST_DAY = '9998-12-31';

const FIRST_MS = Date.parse(`${FIRST_DAY}T00:00:00Z`);
const AFTER_LAST_MS = Date.parse(`${LAST_DAY}T00:00:00Z`) + 86_400_000;

/** Whether a time (epoch milliseconds) lies within the days above; NaN does not. */
export const isWithinDateRange = (ms: number) => ms >= FIRST_MS && ms < AFTER_LAST_MS;

const DAY_MESSAGE = `Use a date as YYYY-MM-DD, from ${FIRST_DAY} to ${LAST_DAY}.`;
const INSTANT_MESSAGE = `Use a date and time in ISO 8601 with Z or an offset (such as 2026-01-31T09:30:00Z), from ${FIRST_DAY} to ${LAST_DAY} in UTC.`;

/** A calendar day as YYYY-MM-DD. Four-digit days sort as text, so the range check compares strings. */
export const ZCalendarDay = z.iso.date({ error: DAY_MESSAGE }).refine((day) => day >= FIRST_DAY && day <= LAST_DAY, { error: DAY_MESSAGE });

/** An instant with Z or an offset, checked in UTC: `9998-12-31T23:00:00-01:00` is already in 9999. */
export const ZInstant = z.iso
  .datetime({ offset: true, error: INSTANT_MESSAGE })
  .refine((value) => isWithinDateRange(Date.parse(value)), { error: INSTANT_MESSAGE });
