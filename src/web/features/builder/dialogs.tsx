import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ZFormatInput } from '../../../contract/formats';
import type { TStarterFormat } from '../../../contract/starter-formats';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { DEFAULT_NEW_FORMAT_NAME } from './model';
import { StarterGallery } from './starter-gallery';

export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onCancel()}>
      <DialogContent className="max-w-md" showCloseButton={false}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button variant={destructive ? 'destructive' : 'default'} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** New: a blank format under a name (default 'New Format'), or one of the starter templates. */
export function NewFormatDialog({
  open,
  dirty,
  onCreate,
  onChooseStarter,
  onCancel,
}: {
  open: boolean;
  dirty: boolean;
  onCreate: (name: string) => void;
  onChooseStarter: (starter: TStarterFormat) => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onCancel()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        {open && (
          <>
            <NewFormatForm dirty={dirty} onCreate={onCreate} onCancel={onCancel} />
            <div className="border-t pt-4">
              <h3 className="mb-1 text-sm font-semibold">Or start from a template</h3>
              <p className="mb-3 text-sm text-muted-foreground">Laid out and with its fields ready; change anything before you save.</p>
              <StarterGallery className="xl:grid-cols-2" onChoose={onChooseStarter} />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** A blank name takes the default; otherwise the name must pass as a saved format's would. */
const ZNewFormat = z.object({
  name: z
    .string()
    .trim()
    .transform((name) => name || DEFAULT_NEW_FORMAT_NAME)
    .pipe(ZFormatInput.shape.name),
});

function NewFormatForm({ dirty, onCreate, onCancel }: { dirty: boolean; onCreate: (name: string) => void; onCancel: () => void }) {
  const id = useId();
  const form = useForm<z.input<typeof ZNewFormat>, unknown, z.output<typeof ZNewFormat>>({
    resolver: zodResolver(ZNewFormat),
    defaultValues: { name: DEFAULT_NEW_FORMAT_NAME },
  });
  const error = form.formState.errors.name?.message;
  // The dialog opens with the name selected, ready to be typed over.
  useEffect(() => form.setFocus('name', { shouldSelect: true }), [form]);
  return (
    <form className="grid gap-4" noValidate onSubmit={(event) => void form.handleSubmit(({ name }) => onCreate(name))(event)}>
      <DialogHeader>
        <DialogTitle>New format</DialogTitle>
        <DialogDescription>{dirty ? 'Start a blank format. Your unsaved changes to this one will be lost.' : 'Start a blank format.'}</DialogDescription>
      </DialogHeader>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-name`}>Format name</Label>
        <Input
          id={`${id}-name`}
          onFocus={(e) => e.currentTarget.select()}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-name-error` : undefined}
          {...form.register('name')}
        />
        {error && (
          <p id={`${id}-name-error`} className="text-xs text-destructive" role="alert">
            {error}
          </p>
        )}
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">Create format</Button>
      </DialogFooter>
    </form>
  );
}
