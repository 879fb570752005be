import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/utils';

const BOX = { sm: 'size-7 rounded-md', md: 'size-9 rounded-lg', lg: 'size-10 rounded-lg', xl: 'size-11 rounded-lg' } as const;
const GLYPH = { sm: 'size-3.5', md: 'size-4', lg: 'size-5', xl: 'size-5' } as const;
// One tint per kind of thing, so a document, a format or a spreadsheet looks the same on every screen.
const TONE = {
  primary: 'bg-primary-soft text-primary',
  document: 'bg-destructive/10 text-destructive',
  spreadsheet: 'bg-success-soft text-[oklch(0.45_0.12_155)]',
  muted: 'bg-muted text-muted-foreground',
} as const;

/** The square, tinted icon that leads a row, a card or a notice. Decorative: the text beside it says what it is. */
export function IconTile({
  icon: Icon,
  size = 'md',
  tone = 'primary',
  className,
}: {
  icon: LucideIcon;
  size?: keyof typeof BOX;
  tone?: keyof typeof TONE;
  className?: string;
}) {
  return (
    <span className={cn('flex shrink-0 items-center justify-center', BOX[size], TONE[tone], className)} aria-hidden>
      <Icon className={GLYPH[size]} />
    </span>
  );
}
