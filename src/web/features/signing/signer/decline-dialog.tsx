import { Loader2Icon } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { TSignResult } from '../../../../contract/signature-requests';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { readApiError } from '../../../lib/api';
import { useDeclineSigning } from './signer-api';

const MAX_REASON = 1_000;

/** "Decline": asks why (the sender is told), then ends the request for everyone. */
export function DeclineDialog({ token, senderName, onDeclined }: { token: string; senderName: string; onDeclined: (result: TSignResult) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const decline = useDeclineSigning(token);
  const failure = decline.error ? readApiError(decline.error) : null;
  const fieldError = missing ? 'Say why you decline, so the sender knows.' : failure?.fields['reason'];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    decline.mutate({ reason: reason.trim() }, { onSuccess: onDeclined });
  };

  return (
    <>
      <Button ref={opener} variant="outline" className="w-full" onClick={() => setOpen(true)}>
        Decline
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (decline.isPending) return;
          setOpen(next);
          if (!next) decline.reset();
        }}
      >
        <DialogContent
          onCloseAutoFocus={(event) => {
            // No Radix trigger here: focus goes back to Decline, where the keyboard user left.
            event.preventDefault();
            opener.current?.focus();
          }}
        >
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Decline to sign</DialogTitle>
              <DialogDescription>
                The request ends for everyone and <bdi>{senderName}</bdi> is told your reason.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={`${id}-reason`}>Why do you decline?</Label>
              <Textarea
                id={`${id}-reason`}
                dir="auto"
                required
                aria-required
                maxLength={MAX_REASON}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? `${id}-reason-error` : undefined}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value);
                  if (event.target.value.trim()) setMissing(false);
                }}
              />
              {fieldError && (
                <p id={`${id}-reason-error`} role="alert" className="text-[13px] text-destructive">
                  {fieldError}
                </p>
              )}
            </div>
            {failure && !failure.fields['reason'] && (
              <Alert variant="destructive">
                <AlertDescription>{failure.message}</AlertDescription>
              </Alert>
            )}
            <DialogFooter>
              <Button variant="outline" onClick={() => setOpen(false)} disabled={decline.isPending}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={decline.isPending}>
                {decline.isPending && <Loader2Icon className="animate-spin" aria-hidden />} Decline to sign
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
