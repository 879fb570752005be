import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { isWithinDateRange } from '../../contract/dates.ts';
import { AppError } from './app-error.ts';

/** Where a page of a newest-first list stopped: the last item's creation time and id. */
export type TPageCursor = { createdAt: Date; id: string };

export function encodePageCursor(last: { createdAt: Date; id: string } | undefined): string | null {
  return last ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString('base64url') : null;
}

/** The cursor a client sent back; anything this API did not make is refused with a 400. */
export function decodePageCursor(cursor: string | undefined): TPageCursor | undefined {
  if (cursor === undefined) return undefined;
  const after = readPageCursor(cursor);
  if (!after) {
    throw new AppError('bad_request', 'The cursor is not one this API gave out. Pass the nextCursor of the previous page, or leave it out.');
  }
  return after;
}

/** The time as toISOString writes it within four-digit years, the only form PostgreSQL reads back. */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Printable ASCII but the separator: ids are UUIDs, and a NUL would fail in PostgreSQL instead of here. */
const CURSOR_ID = /^[\x21-\x7b\x7d\x7e]{1,64}$/;

/**
 * Only the exact text `encodePageCursor` writes: anything else that Date or Buffer would still read
 * (other time forms, years PostgreSQL refuses, stray characters) could reach SQL and fail there.
 */
function readPageCursor(cursor: string): TPageCursor | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  // Decoding skips characters outside the alphabet and padding; only our own encoding round-trips.
  if (Buffer.from(text).toString('base64url') !== cursor) return undefined;
  const [time = '', id = '', ...rest] = text.split('|');
  if (rest.length > 0 || !CURSOR_TIME.test(time) || !CURSOR_ID.test(id)) return undefined;
  const createdAt = new Date(time);
  // A day that does not exist (02-30) parses as another one, so it is not written back the same.
  if (!isWithinDateRange(createdAt.getTime()) || createdAt.toISOString() !== time) return undefined;
  return { createdAt, id };
}

/** One page of `limit` items from `limit + 1` rows read: the extra row says whether more follow. */
export function pageOf<TRow extends { createdAt: Date; id: string }>(rows: TRow[], limit: number): { rows: TRow[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? encodePageCursor(page.at(-1)) : null };
}

/**
 * The rows after `after` in newest-first order. Times compare at millisecond precision, the
 * precision a cursor carries; the database keeps microseconds.
 */
export function keysetAfter(createdAt: PgColumn, id: PgColumn, after: TPageCursor | undefined): SQL | undefined {
  if (!after) return undefined;
  return sql`(date_trunc('milliseconds', ${createdAt}), ${id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`;
}

export function keysetOrder(createdAt: PgColumn, id: PgColumn): SQL[] {
  return [sql`date_trunc('milliseconds', ${createdAt}) desc`, sql`${id} desc`];
}
