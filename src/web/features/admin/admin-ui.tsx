import { Loader2Icon } from 'lucide-react';
import { Switch as SwitchPrimitive } from 'radix-ui';
import * as React from 'react';
import { Button } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';
import { Label } from '../../components/ui/label';
import { cn } from '../../lib/utils';

/** A toggle in the design system's colours (Radix Switch: role="switch", Space toggles). */
export function Switch({ className, ...props }: React.ComponentProps<typeof SwitchPrimitive.Root>) {
  return (
    <SwitchPrimitive.Root
      data-slot="switch"
      className={cn(
        'peer inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent shadow-xs transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary data-[state=unchecked]:bg-input',
        className,
      )}
      {...props}
    >
      <SwitchPrimitive.Thumb className="pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
    </SwitchPrimitive.Root>
  );
}

export { NativeSelect } from '../../components/ui/native-select';

/** Label, control, then a hint or an error (the error wins), wired with aria-describedby ids. */
export function Field({
  id,
  label,
  hint,
  error,
  optional,
  children,
}: {
  id: string;
  label: string;
  hint?: React.ReactNode;
  error?: string | undefined;
  optional?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>
        {label}
        {optional && <span className="font-normal text-muted-foreground">(optional)</span>}
      </Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-[13px] text-destructive" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-[13px] text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function formatDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

export function SpinnerLabel({ pending, idle, busy }: { pending: boolean; idle: string; busy: string }) {
  return (
    <>
      {pending && <Loader2Icon className="animate-spin" aria-hidden />}
      {pending ? busy : idle}
    </>
  );
}

/**
 * Every admin form dialog ends the same way: the server's error right above the buttons, and both
 * buttons locked while the call runs so a second submit or a Cancel cannot race it.
 */
export function FormDialogFooter({
  error,
  pending,
  idle,
  busy,
  submitDisabled = false,
  onCancel,
}: {
  error: string | null;
  pending: boolean;
  idle: string;
  busy: string;
  submitDisabled?: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      {error && (
        <p className="text-[13px] text-destructive" role="alert">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || submitDisabled}>
          <SpinnerLabel pending={pending} idle={idle} busy={busy} />
        </Button>
      </DialogFooter>
    </>
  );
}
