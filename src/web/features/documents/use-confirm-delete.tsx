import { useState, type ReactNode } from 'react';
import type { TDocument } from '../../../contract/documents';
import type { TFormat } from '../../../contract/formats';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { toast } from '../../hooks/use-toast';
import { isUnauthorizedError } from '../../lib/api';
import { useDeleteFormat } from '../formats/api';
import { useDeleteDocument } from './api';

/** The confirmation texts for deleting (docs/decisions.md). */
export const DELETE_FORMAT_CONFIRM = 'Are you sure you want to delete this format? This action cannot be undone.';
export function deleteDocumentConfirm(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone.`;
}

type Target = { kind: 'format'; item: Pick<TFormat, 'id' | 'name'> } | { kind: 'document'; item: Pick<TDocument, 'id' | 'name'> };

/**
 * Deleting formats and documents the same way everywhere: the confirmation text in a dialog,
 * the same success and error toasts, and refreshed lists and stats. A 401 is left to the global
 * handler (its own toast and the redirect to sign-in).
 */
export function useConfirmDelete(): {
  confirmDeleteFormat: (format: Pick<TFormat, 'id' | 'name'>) => void;
  confirmDeleteDocument: (document: Pick<TDocument, 'id' | 'name'>) => void;
  pendingId: string | null;
  dialog: ReactNode;
} {
  const [target, setTarget] = useState<Target | null>(null);
  const [open, setOpen] = useState(false);
  const deleteFormat = useDeleteFormat();
  const deleteDocument = useDeleteDocument();
  const pending = deleteFormat.isPending || deleteDocument.isPending;

  const run = () => {
    if (!target) return;
    const close = () => setOpen(false);
    if (target.kind === 'format') {
      deleteFormat.mutate(target.item.id, {
        onSuccess: () => {
          close();
          toast({ title: 'Success', description: 'Format deleted successfully!' });
        },
        onError: (error) => {
          close();
          if (isUnauthorizedError(error)) return;
          toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete format. Please try again.' });
        },
      });
    } else {
      deleteDocument.mutate(target.item.id, {
        onSuccess: () => {
          close();
          toast({ title: 'Document Deleted', description: 'Document has been removed from your account.' });
        },
        onError: (error) => {
          close();
          if (isUnauthorizedError(error)) return;
          toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete document. Please try again.' });
        },
      });
    }
  };

  const dialog = (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      pending={pending}
      title={target?.kind === 'format' ? `Delete "${target.item.name}"?` : 'Delete document?'}
      description={target?.kind === 'format' ? DELETE_FORMAT_CONFIRM : target ? deleteDocumentConfirm(target.item.name) : ''}
      confirmLabel={target?.kind === 'format' ? 'Delete format' : 'Delete document'}
      pendingLabel="Deleting..."
      onConfirm={run}
    />
  );

  const pendingId = pending ? (target?.item.id ?? null) : null;
  return {
    confirmDeleteFormat: (item) => {
      setTarget({ kind: 'format', item });
      setOpen(true);
    },
    confirmDeleteDocument: (item) => {
      setTarget({ kind: 'document', item });
      setOpen(true);
    },
    pendingId,
    dialog,
  };
}
