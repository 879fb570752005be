import type { LucideIcon } from 'lucide-react';
import { cn } from '../../lib/utils';

/** One thing the product does, on a marketing page: an icon, a short title and a sentence. */
export function FeatureTile({
  icon: Icon,
  title,
  text,
  className,
  iconClassName,
}: {
  icon: LucideIcon;
  title: string;
  text: string;
  className: string;
  iconClassName?: string;
}) {
  return (
    <div className={className}>
      <span className={cn('flex size-10 items-center justify-center rounded-lg bg-primary-soft text-primary', iconClassName)}>
        <Icon className="size-5" aria-hidden />
      </span>
      <h3 className="mt-5 font-semibold">{title}</h3>
      <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
    </div>
  );
}
