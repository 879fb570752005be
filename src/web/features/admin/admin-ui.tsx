import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '../../components/ui/button';
import { DialogFooter } from '../../components/ui/dialog';

export { Switch } from '../../components/ui/switch';
export { NativeSelect } from '../../components/ui/native-select';
export { Field } from '../../components/ui/field';

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
