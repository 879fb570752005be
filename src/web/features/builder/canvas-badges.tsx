import { RepeatIcon } from 'lucide-react';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';

/** The badge a repeating table row or list carries on the canvas: "Repeats for each row of Line items". */
export function RepeatBadge({ list, placeholders, detail }: { list: string; placeholders: readonly TPlaceholder[]; detail?: string }) {
  const p = placeholders.find((x) => x.name === list);
  return (
    <span
      className="inline-flex max-w-full items-center gap-1 rounded-md bg-[oklch(0.95_0.05_190)] px-1.5 py-0.5 text-[11px] font-medium text-[oklch(0.4_0.09_200)]"
      data-testid="repeat-badge"
    >
      <RepeatIcon className="size-3 shrink-0" aria-hidden />
      <span className="truncate">
        Repeats for each row of {p ? placeholderLabel(p) : list}
        {detail ? ` (${detail})` : ''}
      </span>
    </span>
  );
}
