import { ChevronDownIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/**
 * A native select styled like Input: reliable on phones and with the keyboard. `className` sizes
 * the wrapper; `size="sm"` matches the builder's compact controls.
 */
export function NativeSelect({ className, children, size = 'default', ...props }: Omit<ComponentProps<'select'>, 'size'> & { size?: 'default' | 'sm' }) {
  return (
    <div className={cn('relative', className)}>
      <select
        data-slot="native-select"
        className={cn(
          'flex w-full cursor-pointer appearance-none rounded-md border border-input bg-background pl-3 text-sm shadow-xs transition-[border-color,box-shadow] outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive',
          size === 'sm' ? 'h-9 pr-8' : 'h-10 py-2 pr-9',
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDownIcon
        className={cn('pointer-events-none absolute top-1/2 size-4 -translate-y-1/2 text-muted-foreground', size === 'sm' ? 'right-2.5' : 'right-3')}
        aria-hidden
      />
    </div>
  );
}
