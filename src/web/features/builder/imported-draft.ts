import { z } from 'zod';
import { ZImportDraft, type TTemplateImportResponse } from '../../../contract/template-import';
import type { BuilderDoc } from './model';

/*
 * An imported file or a starter template travels to the builder as an unsaved draft: kept in
 * sessionStorage (so a reload of the builder reopens it) and in memory (in case storage is full
 * or unavailable). Nothing reaches the server until the user saves the format.
 */

const STORAGE_KEY = 'formwork.importedDraft';
/** The builder URL that opens the stored draft. */
export const IMPORTED_DRAFT_HREF = '/builder?from=import';

const ZStoredImport = z.object({
  draft: ZImportDraft,
  warnings: z.array(z.string()).default([]),
  /** The imported file's name, or the starter template's name. */
  fileName: z.string(),
  /** import: a file; starter: a starter template; kept: a new format the plan refused to save. */
  origin: z.enum(['import', 'starter', 'kept']).default('import'),
});
export type TStoredImport = z.infer<typeof ZStoredImport>;

let inMemory: TStoredImport | null = null;

export function storeImportedDraft(fileName: string, result: TTemplateImportResponse, origin: TStoredImport['origin'] = 'import'): void {
  const stored: TStoredImport = { draft: result.draft, warnings: result.warnings, fileName, origin };
  inMemory = stored;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Full or blocked storage: the in-memory copy still opens the builder; only a reload loses it.
    try {
      sessionStorage.removeItem(STORAGE_KEY);
    } catch {
      // ignore
    }
  }
}

/** The stored draft, or null when there is none or it is unreadable (never throws). */
export function readImportedDraft(): TStoredImport | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(STORAGE_KEY);
  } catch {
    raw = null;
  }
  if (raw) {
    try {
      const parsed = ZStoredImport.safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: fall through
    }
  }
  return inMemory;
}

export function clearImportedDraft(): void {
  inMemory = null;
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // ignore
  }
}

/** True when the current URL asks the builder to open the imported draft. */
export function wantsImportedDraft(search: string = typeof window === 'undefined' ? '' : window.location.search): boolean {
  return new URLSearchParams(search).get('from') === 'import';
}

/** A format the plan refused to save waits here until the upgrade. */
export function hasKeptDraft(): boolean {
  return readImportedDraft()?.origin === 'kept';
}

/** The builder's document as a draft to keep. */
export function draftOf(doc: BuilderDoc): TStoredImport['draft'] {
  return {
    name: doc.name.trim() || 'Untitled Format',
    ...(doc.description.trim() ? { description: doc.description.trim() } : {}),
    content: doc.content,
    placeholders: doc.placeholders,
  };
}

export function docFromImport(stored: TStoredImport): BuilderDoc {
  const { draft } = stored;
  return { name: draft.name, description: draft.description ?? '', content: draft.content, placeholders: draft.placeholders };
}
