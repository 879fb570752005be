import { CheckIcon, CopyIcon } from 'lucide-react';
import { Fragment, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';

/* The reference's small building blocks: prose with inline code, a method badge, code with a Copy button, a section. */

export function Prose({ text, className }: { text: string | undefined; className?: string }) {
  if (!text) return null;
  return (
    <div className={cn('space-y-2 text-sm leading-relaxed text-muted-foreground', className)}>
      {text.split(/\n\n+/).map((paragraph, i) => (
        <p key={i}>
          {paragraph.split('`').map((part, j) =>
            j % 2 === 1 ? (
              <code key={j} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.8125rem] text-foreground">
                {part}
              </code>
            ) : (
              <Fragment key={j}>{part}</Fragment>
            ),
          )}
        </p>
      ))}
    </div>
  );
}

const METHOD_STYLES: Record<string, string> = {
  get: 'bg-sky-100 text-sky-800',
  post: 'bg-emerald-100 text-emerald-800',
  put: 'bg-amber-100 text-amber-800',
  patch: 'bg-amber-100 text-amber-800',
  delete: 'bg-red-100 text-red-800',
};

export function Method({ method }: { method: string }) {
  return (
    <span className={cn('inline-flex h-6 shrink-0 items-center rounded px-1.5 font-mono text-xs font-semibold uppercase', METHOD_STYLES[method])}>
      {method}
    </span>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="ghost"
      size="icon-sm"
      className="text-slate-300 hover:bg-slate-800 hover:text-white"
      aria-label={copied ? 'Copied' : label}
      onClick={() => {
        void navigator.clipboard.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
    </Button>
  );
}

export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="relative">
      <pre
        role="region"
        className="overflow-x-auto rounded-lg bg-slate-950 p-4 pr-12 text-[0.8125rem] leading-relaxed text-slate-100"
        tabIndex={0}
        aria-label={label}
      >
        <code>{code}</code>
      </pre>
      <div className="absolute top-2 right-2">
        <CopyButton text={code} label={`Copy the ${label}`} />
      </div>
    </div>
  );
}

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 space-y-4 py-8">
      <h2 id={`${id}-title`} className="text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}
