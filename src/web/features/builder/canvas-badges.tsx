import { LanguagesIcon, RepeatIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { THeadingLevel } from '../../../contract/format-content';
import { languageName } from '../../../contract/languages';
import { placeholderLabel, type TPlaceholder } from '../../../contract/placeholders';
import { cn } from '../../lib/utils';

/** A short line about an element above it on the canvas: an icon and text, cut short where narrow. */
export function CanvasBadge({
  icon: Icon,
  tone,
  testId,
  title,
  className,
  children,
}: {
  icon: LucideIcon;
  /** Its background and text colours. */
  tone: string;
  testId: string;
  title?: string;
  className?: string | undefined;
  children: ReactNode;
}) {
  return (
    <span
      className={cn('inline-flex max-w-full min-w-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-[11px] font-medium', tone, className)}
      title={title}
      data-testid={testId}
    >
      <Icon className="size-3 shrink-0" aria-hidden />
      <span className="truncate">{children}</span>
    </span>
  );
}

/** The badge a repeating table row or list carries on the canvas: "Repeats for each row of Line items". */
export function RepeatBadge({ list, placeholders, detail }: { list: string; placeholders: readonly TPlaceholder[]; detail?: string }) {
  const p = placeholders.find((x) => x.name === list);
  return (
    <CanvasBadge icon={RepeatIcon} tone="bg-[oklch(0.95_0.05_190)] text-[oklch(0.4_0.09_200)]" testId="repeat-badge">
      Repeats for each row of {p ? placeholderLabel(p) : list}
      {detail ? ` (${detail})` : ''}
    </CanvasBadge>
  );
}

/** The badge of an element set in a language of its own: "Arabic (Saudi Arabia)". */
export function LanguageBadge({ lang }: { lang: string }) {
  return (
    <CanvasBadge icon={LanguagesIcon} tone="bg-secondary text-secondary-foreground" testId="language-badge">
      <span className="sr-only">Language: </span>
      {languageName(lang)}
    </CanvasBadge>
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
