// Beside the modules, like use-cases.ts: every module that answers with its rows shapes them the same way.

/** The columns an answer shows as they are stored. */
export function pick<TRow, TKey extends keyof TRow>(row: TRow, keys: readonly TKey[]): Pick<TRow, TKey> {
  const picked = {} as Pick<TRow, TKey>;
  for (const key of keys) picked[key] = row[key];
  return picked;
}

/** A time as every answer writes it, ISO 8601 in UTC, or null when it has not happened. */
export const isoOrNull = (time: Date | null | undefined): string | null => time?.toISOString() ?? null;
