import { ArrowLeftIcon, ArrowRightIcon } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { cn } from '../../lib/utils';
import { BuilderMock, DeliverMock, FormMock, PdfMock } from './mockups';
import { SIGN_UP_HREF } from '../../lib/site';

export interface WalkthroughStep {
  title: string;
  body: string;
  visual: ReactNode;
}

export const WALKTHROUGH_STEPS: WalkthroughStep[] = [
  {
    title: 'Build a format',
    body: 'Drag headings, paragraphs, lists, tables and images onto the canvas. Type {{client_name}} anywhere to add a named placeholder.',
    visual: <BuilderMock />,
  },
  {
    title: 'Fill in the generated form',
    body: 'Every placeholder becomes a field with the right type — text, email, number, date, phone, long text or a dropdown. Required fields are checked for you.',
    visual: <FormMock />,
  },
  {
    title: 'Get a polished PDF',
    body: 'Formwork renders the document the same way every time, so a download today matches the one you sent last month.',
    visual: (
      <div className="mx-auto w-[62%] max-w-[260px] py-1">
        <PdfMock />
      </div>
    ),
  },
  {
    title: 'Send it on its way',
    body: 'Download the PDF, hand it to an e-signature service, or open an email draft that already names the document.',
    visual: <DeliverMock />,
  },
];

export function WalkthroughDialog({
  open,
  onOpenChange,
  initialStep = 0,
  inApp = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  initialStep?: number;
  /** Inside the app the last step closes the dialog instead of offering sign-up. */
  inApp?: boolean;
}) {
  const [step, setStep] = useState(initialStep);
  const contentRef = useRef<HTMLDivElement>(null);
  const focusPrimary = () => contentRef.current?.querySelector<HTMLElement>('[data-walkthrough-primary]')?.focus();

  // Keep keyboard focus inside the dialog when the focused control disappears or is disabled.
  useEffect(() => {
    const active = document.activeElement as HTMLElement | null;
    const root = contentRef.current;
    if (!root) return;
    if (!active || !root.contains(active) || active.matches(':disabled') || active === root) focusPrimary();
  }, [step]);
  // Each opening starts at the requested step (adjusted while rendering, so no stale step flashes).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setStep(initialStep);
  }

  const total = WALKTHROUGH_STEPS.length;
  const current = WALKTHROUGH_STEPS[step] ?? WALKTHROUGH_STEPS[0]!;
  const isLast = step === total - 1;
  const back = () => setStep((s) => Math.max(0, s - 1));
  const next = () => setStep((s) => Math.min(total - 1, s + 1));

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-w-2xl gap-0 p-0"
        ref={contentRef}
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          focusPrimary();
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowRight') {
            e.preventDefault();
            next();
          } else if (e.key === 'ArrowLeft') {
            e.preventDefault();
            back();
          }
        }}
      >
        <DialogHeader className="px-6 pt-6">
          <p className="text-xs font-semibold tracking-wide text-primary uppercase" aria-live="polite">
            Step {step + 1} of {total}
          </p>
          <DialogTitle>{current.title}</DialogTitle>
          <DialogDescription>{current.body}</DialogDescription>
        </DialogHeader>
        <div
          className="mx-6 mt-5 flex flex-col justify-center rounded-lg border bg-gradient-to-b from-muted/70 to-muted/20 p-4 sm:min-h-[340px] sm:p-6"
          data-testid="walkthrough-visual"
        >
          {current.visual}
        </div>
        <div className="flex items-center justify-between gap-3 px-6 py-5">
          <div className="flex items-center gap-1.5" role="group" aria-label="Walkthrough steps">
            {WALKTHROUGH_STEPS.map((s, i) => (
              <button
                key={s.title}
                type="button"
                aria-current={i === step ? 'step' : undefined}
                aria-label={`Step ${i + 1}: ${s.title}`}
                onClick={() => setStep(i)}
                className={cn(
                  'h-2 cursor-pointer rounded-full transition-all focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  i === step ? 'w-6 bg-primary' : 'w-2 bg-border hover:bg-muted-foreground/40',
                )}
              />
            ))}
          </div>
          <div className="flex gap-2">
            <Button variant="outline" onClick={back} disabled={step === 0}>
              <ArrowLeftIcon /> Back
            </Button>
            {isLast && inApp ? (
              <Button data-walkthrough-primary onClick={() => onOpenChange(false)}>
                Done
              </Button>
            ) : isLast ? (
              <Button asChild data-walkthrough-primary>
                <a href={SIGN_UP_HREF}>Get Started Free</a>
              </Button>
            ) : (
              <Button data-walkthrough-primary onClick={next}>
                Next <ArrowRightIcon />
              </Button>
            )}
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
