import { AlignLeftIcon, CheckIcon, DownloadIcon, HeadingIcon, ImageIcon, ListIcon, MailIcon, PenLineIcon, TableIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * Illustrations of the product's screens, drawn in JSX so they stay crisp at any size.
 * They are pictures: aria-hidden, nothing inside them is interactive.
 */

export function WindowFrame({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('overflow-hidden rounded-xl border bg-background shadow-elevated', className)} aria-hidden>
      <div className="flex h-8 items-center gap-1.5 border-b bg-muted/60 px-3">
        <span className="size-2.5 rounded-full bg-[oklch(0.75_0.15_25)]" />
        <span className="size-2.5 rounded-full bg-[oklch(0.85_0.14_85)]" />
        <span className="size-2.5 rounded-full bg-[oklch(0.78_0.14_150)]" />
        <span className="ml-3 truncate text-[10px] font-medium text-muted-foreground">{title}</span>
      </div>
      {children}
    </div>
  );
}

export function Chip({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-[5px] border border-primary/25 bg-primary-soft px-1 font-mono text-[0.82em] leading-tight font-medium text-primary',
        className,
      )}
    >
      {children}
    </span>
  );
}

const ELEMENTS = [
  { icon: HeadingIcon, label: 'Heading' },
  { icon: AlignLeftIcon, label: 'Paragraph' },
  { icon: ListIcon, label: 'List' },
  { icon: TableIcon, label: 'Table' },
  { icon: ImageIcon, label: 'Image' },
];

export function BuilderMock({ className }: { className?: string }) {
  return (
    <WindowFrame title="Format Builder — Service Agreement" className={className}>
      <div className="grid grid-cols-[88px_1fr] sm:grid-cols-[112px_1fr]">
        <div className="space-y-1 border-r bg-muted/40 p-2">
          <p className="px-1 pb-1 text-[9px] font-semibold tracking-wider text-muted-foreground uppercase">Elements</p>
          {ELEMENTS.map(({ icon: Icon, label }, i) => (
            <div
              key={label}
              className={cn(
                'flex items-center gap-1.5 rounded-md border bg-background px-1.5 py-1 text-[10px] font-medium',
                i === 1 && 'border-primary/40 text-primary ring-2 ring-primary/15',
              )}
            >
              <Icon className="size-3" />
              {label}
            </div>
          ))}
          <p className="px-1 pt-2 pb-1 text-[9px] font-semibold tracking-wider text-muted-foreground uppercase">Placeholders</p>
          {['client_name', 'start_date', 'fee'].map((p) => (
            <div key={p} className="truncate px-1 font-mono text-[9px] text-primary">
              {`{{${p}}}`}
            </div>
          ))}
        </div>
        <div className="space-y-2.5 bg-muted/20 p-3 sm:p-4">
          <div className="rounded-md border border-dashed border-primary/40 bg-background p-2.5">
            <p className="text-[13px] font-bold tracking-tight">Service Agreement</p>
          </div>
          <div className="rounded-md border bg-background p-2.5 text-[10px] leading-relaxed text-muted-foreground">
            This agreement is made between Acme Studio and <Chip>{'{{client_name}}'}</Chip>, starting on <Chip>{'{{start_date}}'}</Chip> for a monthly fee of{' '}
            <Chip>{'{{fee}}'}</Chip>.
          </div>
          <div className="overflow-hidden rounded-md border bg-background text-[9px]">
            <div className="grid grid-cols-2 border-b bg-muted/50 font-semibold">
              <span className="px-2 py-1">Deliverable</span>
              <span className="border-l px-2 py-1">Due</span>
            </div>
            <div className="grid grid-cols-2 text-muted-foreground">
              <span className="px-2 py-1">Brand guidelines</span>
              <span className="border-l px-2 py-1">
                <Chip>{'{{due_date}}'}</Chip>
              </span>
            </div>
          </div>
          <div className="flex items-center justify-center rounded-md border border-dashed py-1.5 text-[9px] text-muted-foreground">Drop an element here</div>
        </div>
      </div>
    </WindowFrame>
  );
}

const FORM_FIELDS = [
  { label: 'Client name', value: 'Jane Cooper', required: true },
  { label: 'Email', value: 'jane@northwind.co', required: true },
  { label: 'Start date', value: '2025-03-01', required: false },
  { label: 'Fee', value: '$4,800', required: false },
];

export function FormMock({ className }: { className?: string }) {
  return (
    <WindowFrame title="Generate Document — Service Agreement" className={className}>
      <div className="p-3 sm:p-4">
        <div className="mb-3 flex gap-1 rounded-md bg-secondary p-0.5 text-[10px] font-medium">
          <span className="flex-1 rounded bg-background py-1 text-center shadow-xs">Manual Input</span>
          <span className="flex-1 py-1 text-center text-muted-foreground">Bulk Upload</span>
        </div>
        <div className="grid grid-cols-2 gap-2.5">
          {FORM_FIELDS.map((f) => (
            <div key={f.label} className="space-y-1">
              <p className="text-[10px] font-medium">
                {f.label}
                {f.required && <span className="text-destructive"> *</span>}
              </p>
              <div className="truncate rounded-md border bg-background px-2 py-1.5 text-[10px] text-foreground shadow-xs">{f.value}</div>
            </div>
          ))}
        </div>
        <div className="mt-3 flex h-7 items-center justify-center rounded-md bg-primary text-[10px] font-semibold text-primary-foreground">
          Generate Document
        </div>
      </div>
    </WindowFrame>
  );
}

export function PdfMock({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <div className={cn('relative', className)} aria-hidden>
      <div className="relative mx-auto aspect-[1/1.3] w-full overflow-hidden rounded-md border bg-white p-[7%] shadow-elevated">
        <div className="flex items-start justify-between">
          <div>
            <p className="text-[clamp(9px,1.6vw,13px)] font-bold tracking-tight text-foreground">Service Agreement</p>
            <p className="mt-0.5 text-[8px] text-muted-foreground">Acme Studio · Agreement #2025-014</p>
          </div>
          <span className="rounded bg-destructive/10 px-1.5 py-0.5 text-[8px] font-bold text-destructive">PDF</span>
        </div>
        <div className="mt-[8%] space-y-1.5 text-[8.5px] leading-relaxed text-foreground/80">
          <p>
            This agreement is made between Acme Studio and <b className="text-foreground">Jane Cooper</b>, starting on{' '}
            <b className="text-foreground">March 1, 2025</b> for a monthly fee of <b className="text-foreground">$4,800</b>.
          </p>
          {!compact && (
            <>
              <div className="h-1 w-full rounded bg-secondary" />
              <div className="h-1 w-11/12 rounded bg-secondary" />
              <div className="h-1 w-4/5 rounded bg-secondary" />
            </>
          )}
        </div>
        <div className="mt-[7%] overflow-hidden rounded border text-[8px]">
          <div className="grid grid-cols-2 border-b bg-muted/60 font-semibold">
            <span className="px-1.5 py-0.5">Deliverable</span>
            <span className="border-l px-1.5 py-0.5">Due</span>
          </div>
          <div className="grid grid-cols-2 text-foreground/80">
            <span className="px-1.5 py-0.5">Brand guidelines</span>
            <span className="border-l px-1.5 py-0.5">Mar 28, 2025</span>
          </div>
        </div>
        <div className="absolute right-[7%] bottom-[7%] left-[7%] flex items-end justify-between">
          <div>
            <p className="font-serif text-[12px] text-primary italic">Jane Cooper</p>
            <div className="mt-0.5 h-px w-20 bg-foreground/30" />
            <p className="mt-0.5 text-[7px] text-muted-foreground">Client signature</p>
          </div>
          <p className="text-[7px] text-muted-foreground">Page 1 of 1</p>
        </div>
      </div>
    </div>
  );
}

export function DeliverMock({ className }: { className?: string }) {
  const actions = [
    { icon: DownloadIcon, label: 'Download', hint: 'Service-Agreement-Jane-Cooper.pdf' },
    { icon: PenLineIcon, label: 'eSign', hint: 'Send for signature' },
    { icon: MailIcon, label: 'Email', hint: 'Draft addressed to jane@northwind.co' },
  ];
  return (
    <WindowFrame title="Document generated" className={className}>
      <div className="p-4">
        <div className="flex items-center gap-2.5">
          <span className="flex size-7 items-center justify-center rounded-full bg-success-soft text-success">
            <CheckIcon className="size-4" />
          </span>
          <div>
            <p className="text-[12px] font-semibold">Your document is ready</p>
            <p className="text-[10px] text-muted-foreground">Service Agreement — Jane Cooper</p>
          </div>
        </div>
        <div className="mt-3 space-y-1.5">
          {actions.map(({ icon: Icon, label, hint }) => (
            <div key={label} className="flex items-center gap-2.5 rounded-md border bg-background px-2.5 py-2">
              <Icon className="size-3.5 text-primary" />
              <span className="text-[11px] font-medium">{label}</span>
              <span className="ml-auto truncate text-[10px] text-muted-foreground">{hint}</span>
            </div>
          ))}
        </div>
      </div>
    </WindowFrame>
  );
}
