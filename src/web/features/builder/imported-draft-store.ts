import type { TTemplateImportResponse } from '../../../contract/template-import';
import type { TStoredImport } from './imported-draft';

/*
 * An imported file or a starter template travels to the builder as an unsaved draft: kept in
 * sessionStorage (so a reload of the builder reopens it) and in memory (in case storage is full
 * or unavailable). Nothing reaches the server until the user saves the format. Keeping a draft
 * needs no schema, so the dashboard's starters and import load this alone; the builder reads it
 * back through imported-draft.ts, which checks what it reads.
 */

export const IMPORTED_DRAFT_STORAGE_KEY = 'formwork.importedDraft';
/** The builder URL that opens the stored draft. */
export const IMPORTED_DRAFT_HREF = '/builder?from=import';

let inMemory: TStoredImport | null = null;

/** The draft kept in memory: what the builder opens when storage held none. */
export const importedDraftInMemory = () => inMemory;

export function storeImportedDraft(fileName: string, result: TTemplateImportResponse, origin: TStoredImport['origin'] = 'import'): void {
  const stored: TStoredImport = { draft: result.draft, warnings: result.warnings, fileName, origin };
  inMemory = stored;
  try {
    sessionStorage.setItem(IMPORTED_DRAFT_STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Full or blocked storage: the in-memory copy still opens the builder; only a reload loses it.
    try {
      sessionStorage.removeItem(IMPORTED_DRAFT_STORAGE_KEY);
    } catch {
      // ignore
    }
  }
}

export function clearImportedDraft(): void {
  inMemory = null;
  try {
    sessionStorage.removeItem(IMPORTED_DRAFT_STORAGE_KEY);
  } catch {
    // ignore
  }
}
