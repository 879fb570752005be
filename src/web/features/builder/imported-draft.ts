import { z } from 'zod';
import { ZImportDraft } from '../../../contract/template-import';
import { IMPORTED_DRAFT_STORAGE_KEY, importedDraftInMemory } from './imported-draft-store';
import type { BuilderDoc } from './model';

/* Reading back the draft that imported-draft-store.ts kept, checked against its schema. */

const ZStoredImport = z.object({
  draft: ZImportDraft,
  warnings: z.array(z.string()).default([]),
  /** The imported file's name, or the starter template's name. */
  fileName: z.string(),
  /** import: a file; starter: a starter template; kept: a new format the plan refused to save. */
  origin: z.enum(['import', 'starter', 'kept']).default('import'),
});
export type TStoredImport = z.infer<typeof ZStoredImport>;

/** The stored draft, or null when there is none or it is unreadable (never throws). */
export function readImportedDraft(): TStoredImport | null {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(IMPORTED_DRAFT_STORAGE_KEY);
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
  return importedDraftInMemory();
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
