import type { ReactNode } from 'react';

/** One numbered step of the bulk upload screen. */
export function Step({ n, title, description, children }: { n: number; title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <section aria-labelledby={`bulk-step-${n}`} className="space-y-4">
      <div className="flex gap-3">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary-soft text-[13px] font-semibold text-primary" aria-hidden>
          {n}
        </span>
        <div className="min-w-0 pt-0.5">
          <h3 id={`bulk-step-${n}`} className="text-sm font-semibold">
            {title}
          </h3>
          {description && <p className="mt-0.5 text-sm text-muted-foreground">{description}</p>}
        </div>
      </div>
      {children && <div className="sm:pl-10">{children}</div>}
    </section>
  );
}
