import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { ToastAction } from '../../components/ui/toast';
import { isPlanLimitError, upgradeActionFor } from '../../components/plan/upgrade';
import { toast } from '../../hooks/use-toast';
import { errorStatus, isUnauthorizedError, readApiError } from '../../lib/api';
import { formatFillHref } from '../formats/format-actions';
import { draftOf, type TStoredImport } from './imported-draft';
import { clearImportedDraft, storeImportedDraft } from './imported-draft-store';
import { snapshotOf, type BuilderDoc } from './model';
import { useSaveFormat } from './use-save-format';

/**
 * 'Form Ready' follows a save after 2 s, unless another toast was raised meanwhile: it would
 * replace that newer one.
 */
export const FORM_READY_DELAY_MS = 2000;

export interface BuilderSaveOptions {
  doc: BuilderDoc;
  /** `doc` as the server is sent it (with its language); the snapshot stays the builder's own doc. */
  sent: BuilderDoc;
  savedId: string | null;
  imported: TStoredImport | null;
  nameRef: RefObject<HTMLInputElement | null>;
  setNameError: (error: boolean) => void;
  setSavedId: (id: string) => void;
  setSavedSnapshot: (snapshot: string) => void;
  setImported: (stored: TStoredImport) => void;
  /** Runs a navigation without the unsaved-changes prompt. */
  bypass: (fn: () => void) => void;
  onCreated?: (id: string) => void;
}

/** Save Format: checks the name, saves, and tells the user how it went (with Fill in and upgrade actions). */
export function useBuilderSave(o: BuilderSaveOptions) {
  const [, navigate] = useLocation();
  const saveFormat = useSaveFormat();
  const saving = saveFormat.isPending;
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => {
    const list = timers.current;
    return () => list.forEach(clearTimeout);
  }, []);

  const fillInAction = (id: string) => (
    <ToastAction altText="Fill in the form now" onClick={() => o.bypass(() => navigate(formatFillHref(id)))}>
      Fill in now
    </ToastAction>
  );

  const save = () => {
    if (saving) return;
    if (!o.doc.name.trim()) {
      o.setNameError(true);
      o.nameRef.current?.focus();
      toast({ variant: 'destructive', title: 'Missing Name', description: 'Please enter a format name.' });
      return;
    }
    const edited = o.doc;
    const wasNew = !o.savedId;
    saveFormat.mutate(
      { id: o.savedId, doc: o.sent },
      {
        onSuccess: (saved) => {
          o.setSavedId(saved.id);
          o.setSavedSnapshot(snapshotOf(edited));
          if (o.imported) clearImportedDraft();
          const success = toast({ title: 'Success', description: 'Format saved successfully!', action: fillInAction(saved.id) });
          // Only if no other toast came meanwhile (a Clear or Delete in those 2 s): one toast at a time.
          timers.current.push(
            setTimeout(
              () =>
                success.followUp({
                  title: 'Form Ready',
                  description: `The data-entry form for "${saved.name}" is ready to fill.`,
                  action: fillInAction(saved.id),
                }),
              FORM_READY_DELAY_MS,
            ),
          );
          // The address names the saved format, so a reload or a shared link opens it; the builder stays.
          if (wasNew) o.onCreated?.(saved.id);
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) return;
          const status = errorStatus(error);
          const message =
            status === null || status >= 500
              ? 'Failed to save format. Please try again.'
              : readApiError(error, 'Failed to save format. Please try again.').message;
          const refused = isPlanLimitError(error);
          if (refused && wasNew) {
            // Kept for after the upgrade: the builder reopens it from Billing or the payment page.
            const kept: TStoredImport = { draft: draftOf(edited), warnings: [], fileName: edited.name, origin: 'kept' };
            storeImportedDraft(kept.fileName, kept, 'kept');
            o.setImported(kept);
          }
          toast({
            variant: 'destructive',
            title: refused ? 'Plan Limit Reached' : 'Error',
            description: refused && wasNew ? `${message} Your format is kept here in the meantime.` : message,
            action: upgradeActionFor(error, (href) => o.bypass(() => navigate(href))),
          });
        },
      },
    );
  };

  return { save, saving };
}
