import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';
import { Card } from '../ui/card';

type EmptyStateProps = {
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
};

export function EmptyState({ icon: Icon, title, description, action, className }: EmptyStateProps) {
  return (
    <div className={cn('flex flex-col items-center justify-center rounded-lg border border-dashed bg-muted/40 px-6 py-10 text-center', className)}>
      <div className="mb-4 flex size-11 items-center justify-center rounded-full bg-background shadow-card ring-1 ring-border">
        <Icon className="size-5 text-muted-foreground" aria-hidden />
      </div>
      <p className="text-sm font-semibold text-foreground">{title}</p>
      {description && <p className="mt-1 max-w-sm text-sm text-muted-foreground">{description}</p>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}

/** Stands in for a list that would itself be a card, so the page keeps its shape while empty. */
export function EmptyStateCard({ className, ...props }: EmptyStateProps) {
  return (
    <Card className="p-2">
      <EmptyState {...props} className={cn('border-0 bg-transparent py-16', className)} />
    </Card>
  );
}
