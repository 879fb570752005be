import { Loader2Icon, TriangleAlertIcon } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { buttonVariants } from '../../components/ui/button';
import { cn } from '../../lib/utils';

/** SPEC section 5: the confirmation texts for deleting. */
export const DELETE_FORMAT_CONFIRM = 'Are you sure you want to delete this format? This action cannot be undone.';
export function deleteDocumentConfirm(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone.`;
}

/**
 * A destructive confirmation (Radix AlertDialog): focus starts on Cancel, Escape cancels, and the
 * confirm button shows a spinner while the delete runs; the dialog closes when `onConfirm` settles.
 */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Delete',
  pending,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel?: string;
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
              <AlertDialogPrimitive.Description className="text-sm break-words text-muted-foreground">
                {description}
              </AlertDialogPrimitive.Description>
            </div>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel className={buttonVariants({ variant: 'outline' })} disabled={pending}>
              Cancel
            </AlertDialogPrimitive.Cancel>
            <AlertDialogPrimitive.Action
              className={cn(buttonVariants({ variant: 'destructive' }))}
              disabled={pending}
              onClick={(event) => {
                // Keep the dialog open until the delete settles; the caller closes it.
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending && <Loader2Icon className="animate-spin" aria-hidden />}
              {pending ? 'Deleting...' : confirmLabel}
            </AlertDialogPrimitive.Action>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}
