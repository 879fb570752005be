import { useId } from 'react';
import { DATE_TAG, documentNameFor } from '../../../contract/documents';
import type { TFormatContent } from '../../../contract/format-content';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { Input } from '../../components/ui/input';
import { useInsertableField } from './insert-target';

type ContentUpdater = (fn: (c: TFormatContent) => TFormatContent) => void;

/**
 * How the format's documents are named, e.g. `Offer Letter – {{candidate_name}}`, with an example
 * filled from the placeholders' labels; empty keeps "Format - Client - date".
 */
export function DocumentNameField({
  formatName,
  content,
  placeholders,
  update,
}: {
  formatName: string;
  content: TFormatContent;
  placeholders: readonly TPlaceholder[];
  update: ContentUpdater;
}) {
  const id = useId();
  const pattern = content.documentNamePattern ?? '';
  const set = (value: string) =>
    update((c) => {
      const { documentNamePattern: _old, ...rest } = c;
      return value.trim() ? { ...rest, documentNamePattern: value } : rest;
    });
  const field = useInsertableField('Document name', set);
  const sample = Object.fromEntries(placeholders.map((p) => [p.name, `[${placeholderLabel(p)}]`]));
  const example = documentNameFor({ name: formatName || 'Untitled Format', documentNamePattern: pattern, placeholders }, sample, '[Date]');
  return (
    <div className="mt-3 grid gap-1.5">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        Document name
      </label>
      <Input
        id={id}
        value={pattern}
        maxLength={200}
        placeholder={`e.g. ${formatName || 'Offer Letter'} – {{${placeholders[0]?.name ?? 'client_name'}}}`}
        aria-describedby={`${id}-hint`}
        onChange={(e) => set(e.target.value)}
        className="h-9"
        {...field}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {pattern.trim() ? (
          <>
            Documents are named like <span className="font-medium break-words text-foreground">{example}</span>. Spreadsheets and the API use it too.
          </>
        ) : (
          <>
            Empty: the format’s name, the client and the date. Use fields and <code className="font-mono text-foreground">{`{{${DATE_TAG}}}`}</code> to name
            them yourself.
          </>
        )}
      </p>
    </div>
  );
}
