import { useMutation } from '@tanstack/react-query';
import { useRef, type ChangeEvent } from 'react';
import { useLocation } from 'wouter';
import type { TTemplateImportResponse } from '../../../contract/template-import';
import { IMPORT_FILE_FIELD, importKindOfFileName, MAX_IMPORT_BYTES, MAX_IMPORT_MB } from '../../../contract/template-import-files';
import { toast } from '../../hooks/use-toast';
import { api, readApiError } from '../../lib/api';
import { handleIfUnauthorized } from '../../lib/unauthorized';
import { IMPORTED_DRAFT_HREF, storeImportedDraft } from '../builder/imported-draft-store';

/** How long the result toast stays when it has warnings to read (the default is 5 s). */
const WARNING_TOAST_MS = 12_000;

/** POST /api/formats/import as multipart (field `file`). */
export async function importTemplate(file: File): Promise<TTemplateImportResponse> {
  const form = new FormData();
  form.append(IMPORT_FILE_FIELD, file, file.name);
  return api.upload<TTemplateImportResponse>('/api/formats/import', form);
}

/** The picker's own check, worded like the server's answers (413, 415), to fail fast. */
export function checkTemplateFile(file: File): string | null {
  if (!importKindOfFileName(file.name)) return 'Only .docx, .pdf and .txt files can be imported.';
  if (file.size > MAX_IMPORT_BYTES) return `The file is larger than ${MAX_IMPORT_MB} MB. Import a smaller file.`;
  if (file.size === 0) return 'The file is empty.';
  return null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function importSummary(result: TTemplateImportResponse): string {
  const elements = result.draft.content.elements.length;
  const placeholders = result.draft.placeholders.length;
  return `${plural(elements, 'element')} and ${plural(placeholders, 'placeholder')} imported. Review them, then save the format.`;
}

/**
 * Import Template: a hidden file input, the upload, and on success the builder with the draft.
 * Nothing is saved as a format here; the builder saves it when the user asks.
 */
export function useTemplateImport() {
  const inputRef = useRef<HTMLInputElement>(null);
  const [, navigate] = useLocation();
  const mutation = useMutation({
    mutationFn: (file: File) => importTemplate(file),
    onSuccess: (result, file) => {
      storeImportedDraft(file.name, result);
      const { warnings } = result;
      toast({
        title: 'Template Imported',
        duration: warnings.length > 0 ? WARNING_TOAST_MS : undefined,
        description: (
          <>
            <span className="block">{importSummary(result)}</span>
            {warnings.length > 0 && (
              <span className="mt-1 block" data-testid="import-toast-warnings">
                {plural(warnings.length, 'note')}: {warnings.slice(0, 2).join(' ')}
                {warnings.length > 2 ? ' See the builder for the rest.' : ''}
              </span>
            )}
          </>
        ),
      });
      navigate(IMPORTED_DRAFT_HREF);
    },
    onError: (error) => {
      if (handleIfUnauthorized(error)) return;
      toast({
        variant: 'destructive',
        title: 'Import Failed',
        description: readApiError(error, 'The file could not be imported. Please try again.').message,
      });
    },
  });

  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Cleared, so choosing the same file again (after fixing it) fires a change.
    e.target.value = '';
    if (!file) return;
    const problem = checkTemplateFile(file);
    if (problem) {
      toast({ variant: 'destructive', title: 'Import Failed', description: problem });
      return;
    }
    mutation.mutate(file);
  };

  return {
    inputRef,
    onChange,
    open: () => inputRef.current?.click(),
    pending: mutation.isPending,
  };
}
