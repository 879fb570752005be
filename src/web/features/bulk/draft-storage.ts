import type { TColumnMapping } from '../../../contract/bulk';

/**
 * The draft being reviewed survives switching tabs and reloading: its id (and the mapping the
 * upload matched, to tell automatic matches from the person's own) is kept for this browser tab.
 */
export type StoredDraft = { id: string; auto: TColumnMapping };
const storageKey = (formatId: string) => `formwork:bulk-draft:${formatId}`;

export function readStored(formatId: string): StoredDraft | null {
  try {
    const raw = sessionStorage.getItem(storageKey(formatId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredDraft>;
    return typeof parsed.id === 'string' ? { id: parsed.id, auto: parsed.auto ?? {} } : null;
  } catch {
    return null;
  }
}

export function writeStored(formatId: string, value: StoredDraft | null): void {
  try {
    if (value) sessionStorage.setItem(storageKey(formatId), JSON.stringify(value));
    else sessionStorage.removeItem(storageKey(formatId));
  } catch {
    // storage unavailable (private mode): the draft just does not survive a reload
  }
}
