import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { DEFAULT_NEW_FORMAT_NAME } from './model';

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

/** SPEC: New asks for a name (default 'New Format'). */
export function NewFormatDialog({
  open,
  dirty,
  onCreate,
  onCancel,
}: {
  open: boolean;
  dirty: boolean;
  onCreate: (name: string) => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onCancel()}>
      <DialogContent className="max-w-md">{open && <NewFormatForm dirty={dirty} onCreate={onCreate} onCancel={onCancel} />}</DialogContent>
    </Dialog>
  );
}

function NewFormatForm({ dirty, onCreate, onCancel }: { dirty: boolean; onCreate: (name: string) => void; onCancel: () => void }) {
  const id = useId();
  const [name, setName] = useState(DEFAULT_NEW_FORMAT_NAME);
  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        onCreate(name.trim() || DEFAULT_NEW_FORMAT_NAME);
      }}
    >
      <DialogHeader>
        <DialogTitle>New format</DialogTitle>
        <DialogDescription>
          {dirty ? 'Start a blank format. Your unsaved changes to this one will be lost.' : 'Start a blank format.'}
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-name`}>Format name</Label>
        <Input id={`${id}-name`} value={name} autoFocus onFocus={(e) => e.currentTarget.select()} onChange={(e) => setName(e.target.value)} />
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
