import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  BULK_ACCEPTED_EXTENSIONS,
  BULK_MAX_FILE_BYTES,
  type TBulkJob,
  type TBulkJobList,
  type TBulkJobStatus,
  type TBulkRowError,
  type TBulkUpload,
  type TColumnMapping,
  type TStartBulkJobBody,
} from '../../../contract/bulk';
import type { TDocument } from '../../../contract/documents';
import { api, errorStatus } from '../../lib/api';
import { bulkJobKeys, documentKeys, refreshAfterChange } from '../../lib/query-keys';

/** How often a queued or running job is polled. */
export const JOB_POLL_MS = 1000;

const enc = encodeURIComponent;

export function isActive(status: TBulkJobStatus): boolean {
  return status === 'queued' || status === 'running';
}

// ---------------------------------------------------------------------------------------------
// Upload and draft

/** The client-side check of a picked file, worded like the server's answers (413, 415). */
export function checkSpreadsheetFile(file: File): string | null {
  const base = file.name.split(/[\\/]/).pop() ?? file.name;
  const dot = base.lastIndexOf('.');
  const ext = dot <= 0 ? '' : base.slice(dot).toLowerCase();
  const accepted = 'Upload an .xlsx, .xls or .csv file.';
  if (!ext) return `"${base}" has no file extension, so its type is unknown. ${accepted}`;
  if (!(BULK_ACCEPTED_EXTENSIONS as readonly string[]).includes(ext)) return `${ext} files cannot be read. ${accepted}`;
  if (file.size > BULK_MAX_FILE_BYTES) {
    return `The file is larger than ${BULK_MAX_FILE_BYTES / 1024 / 1024} MB. Split it into smaller files.`;
  }
  if (file.size === 0) return 'The file is empty.';
  return null;
}

/** POST /api/formats/:id/bulk as multipart (field `file`). */
export async function uploadSpreadsheet(formatId: string, file: File): Promise<TBulkUpload> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.upload<TBulkUpload>(`/api/formats/${enc(formatId)}/bulk`, form);
}

export function useUploadSpreadsheet(formatId: string) {
  return useMutation({ mutationFn: (file: File) => uploadSpreadsheet(formatId, file) });
}

/** GET /api/bulk-jobs/:id/draft, only when there is a draft to restore. */
export function useDraft(id: string | null) {
  return useQuery({
    queryKey: bulkJobKeys.draft(id ?? ''),
    enabled: !!id,
    queryFn: async (): Promise<TBulkUpload | null> => {
      try {
        return await api.get<TBulkUpload>(`/api/bulk-jobs/${enc(id ?? '')}/draft`);
      } catch (error) {
        // A stale draft id (started elsewhere, discarded, expired) just means "start over".
        const status = errorStatus(error);
        if (status === 404 || status === 409) return null;
        throw error;
      }
    },
  });
}

export function useUpdateMapping(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mapping: TColumnMapping) => api.put<TBulkUpload>(`/api/bulk-jobs/${enc(id)}/mapping`, { mapping }),
    onSuccess: (draft) => client.setQueryData(bulkJobKeys.draft(id), draft),
  });
}

export function useDiscardDraft() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/bulk-jobs/${enc(id)}/draft`),
    onSettled: (_data, _error, id) => client.removeQueries({ queryKey: bulkJobKeys.draft(id) }),
    // Discarding is housekeeping: a failure must not interrupt the person choosing another file.
    meta: { skipUnauthorizedHandler: true },
  });
}

export function useStartJob(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TStartBulkJobBody) => api.post<TBulkJob>(`/api/bulk-jobs/${enc(id)}/start`, body),
    onSuccess: (job) => {
      client.removeQueries({ queryKey: bulkJobKeys.draft(id) });
      client.setQueryData(bulkJobKeys.job(job.id), job);
      void client.invalidateQueries({ queryKey: bulkJobKeys.lists() });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Jobs

/** One job; polled every second while it is queued or running. */
export function useBulkJob(id: string) {
  return useQuery({
    queryKey: bulkJobKeys.job(id),
    queryFn: () => api.get<TBulkJob>(`/api/bulk-jobs/${enc(id)}`),
    refetchInterval: (query) => (query.state.data && isActive(query.state.data.status) ? JOB_POLL_MS : false),
    refetchIntervalInBackground: false,
  });
}

/** Batches, newest started first, a page at a time; polled every 2 s while any of them is still generating. */
export function useBulkJobPages(pageSize: number, enabled = true, createdBy: string | null = null) {
  return useInfiniteQuery({
    enabled,
    queryKey: [...bulkJobKeys.pages(pageSize), createdBy ?? 'everyone'],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      api.get<TBulkJobList>(`/api/bulk-jobs?limit=${pageSize}&offset=${pageParam}${createdBy ? `&createdBy=${encodeURIComponent(createdBy)}` : ''}`),
    getNextPageParam: (lastPage, allPages) => (lastPage.jobs.length < pageSize ? undefined : allPages.reduce((n, page) => n + page.jobs.length, 0)),
    // Jobs move on in the background: read afresh on every visit, then poll while any runs.
    refetchOnMount: 'always',
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.jobs.some((j) => isActive(j.status))) ? 2 * JOB_POLL_MS : false),
  });
}

export function useCancelJob(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<TBulkJob>(`/api/bulk-jobs/${enc(id)}/cancel`),
    onSuccess: (job) => {
      client.setQueryData(bulkJobKeys.job(id), job);
      void refreshAfterBatch(client, id);
    },
  });
}

/** After a batch moves on (finished, cancelled): its documents, the lists, stats and usage. */
export async function refreshAfterBatch(client: QueryClient, id: string): Promise<void> {
  await Promise.all([
    refreshAfterChange(client, 'documents'),
    client.invalidateQueries({ queryKey: bulkJobKeys.lists() }),
    client.invalidateQueries({ queryKey: bulkJobKeys.errors(id) }),
  ]);
}

export const ROW_ERRORS_PAGE_SIZE = 50;

export function useRowErrors(id: string, offset: number, enabled = true) {
  return useQuery({
    queryKey: bulkJobKeys.errorsPage(id, offset),
    enabled,
    queryFn: () => api.get<{ errors: TBulkRowError[]; total: number }>(`/api/bulk-jobs/${enc(id)}/errors?limit=${ROW_ERRORS_PAGE_SIZE}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
}

export const BATCH_DOCUMENTS_PAGE_SIZE = 50;

/** One page of a batch's documents (spreadsheet order), refreshed every 3 s while it runs. */
export function useBatchDocuments(id: string, offset: number, running: boolean) {
  return useQuery({
    queryKey: documentKeys.ofBatch(id, offset),
    queryFn: () => api.get<TDocument[]>(`/api/documents?batchId=${enc(id)}&limit=${BATCH_DOCUMENTS_PAGE_SIZE}&offset=${offset}`),
    // Quickly until the first documents are in, then every few seconds: the count is on the job.
    refetchInterval: (query) => (running ? (query.state.data?.length ? 3 * JOB_POLL_MS : JOB_POLL_MS) : false),
    placeholderData: keepPreviousData,
  });
}

export function zipUrl(id: string): string {
  return `/api/bulk-jobs/${enc(id)}/documents.zip`;
}
/** GET /api/bulk-jobs/:id/documents.pdf: every document of a batch in one PDF, up to this many (the renderer's limit). */
export const MERGED_PDF_MAX_DOCUMENTS = 5_000;
export function mergedPdfUrl(id: string): string {
  return `/api/bulk-jobs/${enc(id)}/documents.pdf`;
}
export function errorsCsvUrl(id: string): string {
  return `/api/bulk-jobs/${enc(id)}/errors.csv`;
}
export function batchHref(id: string): string {
  return `/batches/${enc(id)}`;
}
