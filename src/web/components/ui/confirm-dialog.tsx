import { Loader2Icon, TriangleAlertIcon } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { buttonVariants } from './button';

/**
 * A destructive confirmation (Radix AlertDialog): focus starts on Cancel, Escape cancels, and the
 * confirm button shows a spinner while the call runs. It stays open until `onConfirm` settles so
 * the caller decides when to close, and it cannot be dismissed mid-call.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-[oklch(0.2_0.02_275/0.45)] backdrop-blur-[2px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in" />
        <AlertDialogPrimitive.Content className="fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-5 rounded-xl border bg-background p-6 shadow-elevated outline-none data-[state=closed]:animate-fade-out data-[state=open]:animate-zoom-in">
          <div className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-destructive/10 text-destructive">
              <TriangleAlertIcon className="size-5" aria-hidden />
            </span>
            <div className="min-w-0 space-y-1.5">
              <AlertDialogPrimitive.Title className="text-lg leading-snug font-semibold tracking-tight break-words">{title}</AlertDialogPrimitive.Title>
              <AlertDialogPrimitive.Description className="text-sm break-words text-muted-foreground">{description}</AlertDialogPrimitive.Description>
            </div>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel className={buttonVariants({ variant: 'outline' })} disabled={pending}>
              Cancel
            </AlertDialogPrimitive.Cancel>
            <AlertDialogPrimitive.Action
              className={buttonVariants({ variant: 'destructive' })}
              disabled={pending}
              onClick={(event) => {
                // Radix closes on Action by default; the caller closes once the call settles.
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending && <Loader2Icon className="animate-spin" aria-hidden />}
              {pending ? pendingLabel : confirmLabel}
            </AlertDialogPrimitive.Action>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
