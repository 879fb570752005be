import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';
import { decodePageCursor, encodePageCursor } from './page-cursor.ts';

const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

/** The error a cursor is refused with, or undefined when it is taken. */
function refusal(cursor: string): AppError | undefined {
  try {
    decodePageCursor(cursor);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('page cursors', () => {
  it('reads back every cursor this API writes', () => {
    for (const createdAt of [new Date('2026-03-01T12:34:56.789Z'), new Date('1970-01-01T00:00:00.000Z'), new Date('9998-12-31T23:59:59.999Z')]) {
      const id = '0b6f7c1e-2f4a-4b7e-9d59-3c1f0e4a8b21';
      expect(decodePageCursor(encodePageCursor({ createdAt, id })!)).toEqual({ createdAt, id });
    }
    expect(decodePageCursor(undefined)).toBeUndefined();
  });

  // Each of these once reached the database as a time PostgreSQL cannot read: a 500, not a 400.
  it.each([
    ['a number for the time', '99999|x'],
    ['a year past 9999', '+275760-09-13T00:00:00.000Z|x'],
    ['a negative year', '-000001-01-01T00:00:00.000Z|x'],
    ['year zero', '0000-01-01T00:00:00.000Z|x'],
    ['year 9999, past the last day', '9999-12-31T23:59:59.999Z|x'],
    ['a time written another way', '2026-03-01T12:34:56Z|x'],
    ['a time with an offset', '2026-03-01T12:34:56.789+01:00|x'],
    ['a day that does not exist', '2026-02-30T00:00:00.000Z|x'],
    ['no id', '2026-03-01T12:34:56.789Z|'],
    ['a second separator', '2026-03-01T12:34:56.789Z|x|y'],
    ['a NUL in the id', '2026-03-01T12:34:56.789Z|x\u0000'],
    ['an overlong id', `2026-03-01T12:34:56.789Z|${'x'.repeat(65)}`],
  ])('refuses a cursor with %s as a 400 bad_request', (_, text) => {
    expect(refusal(cursorOf(text))).toMatchObject({ code: 'bad_request', message: expect.stringContaining('not one this API gave out') });
  });

  it('refuses an encoding this API does not write', () => {
    const good = cursorOf('2026-03-01T12:34:56.789Z|x');
    expect(refusal(good)).toBeUndefined();
    for (const cursor of [`${good}=`, `${good}.`, Buffer.from('2026-03-01T12:34:56.789Z|x').toString('base64'), '', 'not-a-cursor']) {
      expect(refusal(cursor), cursor).toMatchObject({ code: 'bad_request' });
    }
  });
});
