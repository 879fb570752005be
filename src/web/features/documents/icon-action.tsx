import type { LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip';
import { cn } from '../../lib/utils';

type IconActionProps = {
  label: string;
  icon: LucideIcon;
  destructive?: boolean;
  disabled?: boolean;
  className?: string;
} & ({ href: string; external?: boolean; download?: boolean; onClick?: never } | { onClick: () => void; href?: never; external?: never; download?: never });

/** A small icon button with an accessible name and a tooltip; a link when given href (a download link with `download`). */
export function IconAction({ label, icon: Icon, destructive, disabled, className, ...rest }: IconActionProps) {
  const classes = cn('text-muted-foreground hover:text-foreground', destructive && 'hover:bg-destructive/10 hover:text-destructive', className);
  let control;
  if (rest.href !== undefined) {
    control = (
      <Button variant="ghost" size="icon-sm" className={classes} asChild>
        {rest.download ? (
          <a href={rest.href} download aria-label={label}>
            <Icon aria-hidden />
          </a>
        ) : rest.external ? (
          <a href={rest.href} target="_blank" rel="noopener" aria-label={label}>
            <Icon aria-hidden />
          </a>
        ) : (
          <Link href={rest.href} aria-label={label}>
            <Icon aria-hidden />
          </Link>
        )}
      </Button>
    );
  } else {
    control = (
      <Button variant="ghost" size="icon-sm" className={classes} onClick={rest.onClick} disabled={disabled} aria-label={label}>
        <Icon aria-hidden />
      </Button>
    );
  }
  return (
    <Tooltip>
      <TooltipTrigger asChild>{control}</TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
