import type { LucideIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip';

/** A small icon button with a tooltip (its label, or `tooltip` when that says more); `pressed` makes it a toggle. */
export function IconButton({
  icon: Icon,
  label,
  tooltip,
  pressed,
  className,
  tone = 'default',
  ...props
}: Omit<ComponentProps<'button'>, 'children'> & { icon: LucideIcon; label: string; tooltip?: string; pressed?: boolean; tone?: 'default' | 'danger' }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label={label}
          aria-pressed={pressed}
          className={cn(
            'inline-flex size-8 shrink-0 cursor-pointer items-center justify-center rounded-md text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none disabled:opacity-40 [&_svg]:size-4',
            pressed && 'bg-primary-soft text-primary hover:bg-primary-soft hover:text-primary',
            tone === 'danger' && 'hover:bg-destructive/10 hover:text-destructive',
            className,
          )}
          {...props}
        >
          <Icon aria-hidden />
        </button>
      </TooltipTrigger>
      <TooltipContent>{tooltip ?? label}</TooltipContent>
    </Tooltip>
  );
}
