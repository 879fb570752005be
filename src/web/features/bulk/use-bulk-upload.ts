import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { columnPlaceholders, DEFAULT_FILE_NAME_PATTERN, type TBulkUpload, type TColumnMapping } from '../../../contract/bulk';
import { isSigningPlaceholder, type TPlaceholder } from '../../../contract/placeholders';
import { upgradeActionFor } from '../../components/plan/upgrade';
import { toast, toastApiError } from '../../hooks/use-toast';
import { errorStatus, isUnauthorizedError, readApiError } from '../../lib/api';
import { bulkJobKeys } from '../../lib/query-keys';
import { batchHref, checkSpreadsheetFile, useDiscardDraft, useDraft, useStartJob, useUpdateMapping, useUploadSpreadsheet } from './api';
import { readStored, writeStored, type StoredDraft } from './draft-storage';
import { plural } from './job-status';
import { patternError, type InvalidChoice } from './start-panel';
import { useFormat } from '../formats/api';

/** The state of the Bulk Upload tab: the remembered draft, the upload, the mapping and the start. */
export function useBulkUpload(formatId: string, placeholders: readonly TPlaceholder[]) {
  // A list fills no column of its own (its lines come from their sheet) and a formula is computed.
  const fields = useMemo(() => columnPlaceholders(placeholders), [placeholders]);
  // What a spreadsheet fills: not formulas (computed) nor signing fields (signers fill those).
  const shown = useMemo(() => placeholders.filter((p) => p.type !== 'formula' && !isSigningPlaceholder(p)), [placeholders]);
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const format = useFormat(formatId);
  const [remembered, setRemembered] = useState<StoredDraft | null>(() => readStored(formatId));
  const draftQuery = useDraft(remembered?.id ?? null);
  // A remembered draft that is gone (started, discarded, format deleted) quietly resets the tab.
  const draftGone = remembered !== null && draftQuery.isSuccess && draftQuery.data === null;
  const stored = draftGone ? null : remembered;
  useEffect(() => {
    if (draftGone) writeStored(formatId, null);
  }, [draftGone, formatId]);
  const draft = draftQuery.data ?? null;
  const upload = useUploadSpreadsheet(formatId);
  const discard = useDiscardDraft();
  const updateMapping = useUpdateMapping(stored?.id ?? '');
  const start = useStartJob(stored?.id ?? '');
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploadingName, setUploadingName] = useState<string | null>(null);
  const [choice, setChoice] = useState<InvalidChoice | null>(null);
  const [pattern, setPattern] = useState(DEFAULT_FILE_NAME_PATTERN);
  const reviewRef = useRef<HTMLDivElement>(null);

  const remember = (value: StoredDraft | null) => {
    writeStored(formatId, value);
    setRemembered(value);
  };

  const fail = (message: string) => {
    setUploadError(message);
    // While a draft is on screen the file buttons are at the top; the person may be far below.
    if (draft) toast({ variant: 'destructive', title: 'Upload failed', description: message });
  };

  const send = (file: File) => {
    const problem = checkSpreadsheetFile(file);
    if (problem) {
      fail(problem);
      return;
    }
    setUploadError(null);
    setUploadingName(file.name);
    const previous = stored?.id ?? null;
    upload.mutate(file, {
      onSuccess: (next: TBulkUpload) => {
        client.setQueryData(bulkJobKeys.draft(next.id), next);
        remember({ id: next.id, auto: next.mapping });
        setChoice(null);
        if (previous && previous !== next.id) discard.mutate(previous);
        requestAnimationFrame(() => reviewRef.current?.focus());
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) return;
        fail(readApiError(error, 'The file could not be uploaded. Please try again.').message);
      },
      onSettled: () => setUploadingName(null),
    });
  };

  const startOver = () => {
    if (stored) discard.mutate(stored.id);
    remember(null);
    setChoice(null);
    setUploadError(null);
  };

  const changeMapping = (mapping: TColumnMapping) =>
    updateMapping.mutate(mapping, {
      onError: toastApiError('Could not change the mapping'),
    });

  const startBatch = () => {
    if (!draft || patternError(pattern)) return;
    start.mutate(
      { skipInvalid: draft.invalidRows > 0 && choice === 'skip', fileNamePattern: pattern.trim() },
      {
        onSuccess: (job) => {
          writeStored(formatId, null);
          toast({ title: 'Batch started', description: `Generating ${plural(job.total, 'document')} in the background.` });
          navigate(batchHref(job.id));
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) return;
          if (errorStatus(error) === 409 && stored) {
            // Started already (another tab, a double click): its batch page has the progress.
            writeStored(formatId, null);
            navigate(batchHref(stored.id));
            return;
          }
          toast({ variant: 'destructive', title: 'Could not start the batch', description: readApiError(error).message, action: upgradeActionFor(error) });
          // The counts (quota, validity) may have changed since the preview: show the current ones.
          void draftQuery.refetch();
        },
      },
    );
  };

  return {
    fields,
    shown,
    format,
    stored,
    draftQuery,
    draft,
    upload,
    updateMapping,
    start,
    uploadError,
    uploadingName,
    choice,
    setChoice,
    pattern,
    setPattern,
    reviewRef,
    fail,
    send,
    startOver,
    changeMapping,
    startBatch,
  };
}

export type BulkUploadState = ReturnType<typeof useBulkUpload>;
