import type { LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * One option of a radio group drawn as a card: its icon and name over a line saying what it
 * means. The radio's own props (name, value, a form's register) pass through; `checked` only
 * draws the card as chosen.
 */
export function ChoiceCard({
  checked,
  disabled,
  icon: Icon,
  label,
  description,
  ...radio
}: { checked: boolean; icon: LucideIcon; label: string; description: ReactNode } & Omit<ComponentProps<'input'>, 'type' | 'checked'>) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-lg border p-3.5 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        checked ? 'border-primary bg-primary-soft/60' : 'hover:bg-muted/50',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      <input type="radio" disabled={disabled} {...radio} className="mt-0.5 size-4 accent-[var(--color-primary)]" />
      <span className="grid gap-0.5">
        <span className="flex items-center gap-1.5 text-sm font-medium">
          <Icon className="size-4 text-muted-foreground" aria-hidden /> {label}
        </span>
        <span className="text-[13px] text-muted-foreground">{description}</span>
      </span>
    </label>
  );
}
