import { RepeatIcon } from 'lucide-react';
import type { THeadingLevel } from '../../../contract/format-content';
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

/**
 * A heading's level in the document's outline ("H2"), beside it on the canvas: its size shows how it
 * looks, this what a screen reader announces. The level is said in words, not as "H2".
 */
export function HeadingLevelBadge({ level }: { level: THeadingLevel }) {
  return (
    <span
      className="inline-flex shrink-0 items-center rounded-md bg-secondary px-1.5 py-0.5 font-sans text-[11px] leading-none font-semibold text-secondary-foreground tabular-nums"
      title={`Heading level ${level}`}
      data-testid="heading-level-badge"
    >
      <span className="sr-only">Level {level}: </span>
      <span aria-hidden>H{level}</span>
    </span>
  );
}
