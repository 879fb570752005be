import { cn } from '../../lib/utils';

/** A blank page drawn in bars: where a PDF will show once there is one. */
export function PaperSketch({ className }: { className?: string }) {
  return (
    <div className={cn('flex aspect-[1/1.414] w-28 flex-col gap-1.5 rounded-sm bg-background p-3 shadow-card', className)} aria-hidden>
      <div className="h-2 w-2/3 rounded-full bg-muted-foreground/25" />
      <div className="h-1.5 w-full rounded-full bg-muted-foreground/15" />
      <div className="h-1.5 w-5/6 rounded-full bg-muted-foreground/15" />
      <div className="h-1.5 w-full rounded-full bg-muted-foreground/15" />
      <div className="mt-1 h-6 w-full rounded-sm bg-muted-foreground/10" />
    </div>
  );
}
