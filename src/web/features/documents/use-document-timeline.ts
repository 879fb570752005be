import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TBulkJob } from '../../../contract/bulk';
import type { TDocument } from '../../../contract/documents';
import { apiJson } from '../../lib/api';
import { isActive, useBulkJobs } from '../bulk/api';
import { DOCUMENTS_KEY, useStats } from '../formats/api';

/** Documents fetched per request: batch documents fold into one row, so pages are read in bulk. */
const FETCH_SIZE = 200;
/** Rows shown at first and added by each Load more. */
export const TIMELINE_STEP = 25;
/** Pages read in a row to fill the list before asking the person to Load more. */
const MAX_AUTO_PAGES = 5;

export type TimelineEntry =
  | { kind: 'document'; key: string; time: number; document: TDocument }
  | { kind: 'batch'; key: string; time: number; job: TBulkJob }
  /** A batch whose documents are listed but whose job is beyond the batches fetched. */
  | { kind: 'orphan-batch'; key: string; time: number; batchId: string; formatName: string };

function jobTime(job: TBulkJob): number {
  // A running batch is the newest thing there is; a finished one sits where its last document does.
  if (isActive(job.status)) return Number.POSITIVE_INFINITY;
  return new Date(job.finishedAt ?? job.startedAt ?? job.createdAt).getTime();
}

/**
 * Recent Documents as one timeline, newest first: documents made one at a time as themselves, and
 * each bulk batch as a single entry (from GET /api/bulk-jobs) instead of hundreds of rows.
 *
 * GET /api/documents has no "made one at a time" filter, so documents are read in large pages and
 * batch documents are dropped here. An entry older than the oldest document read so far waits
 * until the pages reach it, so the order never jumps. Paging stops once every document not read
 * yet is accounted for by a batch (total documents - read - batch documents still unread <= 0):
 * a batch of thousands then costs no requests at all. Deleted batch documents make that estimate
 * low; when it is visibly off (below zero) `lookOlder` offers to read on anyway.
 */
export function useDocumentTimeline() {
  const pages = useInfiniteQuery({
    queryKey: [...DOCUMENTS_KEY, 'timeline', FETCH_SIZE],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => apiJson<TDocument[]>('GET', `/api/documents?limit=${FETCH_SIZE}&offset=${pageParam}`),
    getNextPageParam: (lastPage, allPages) =>
      lastPage.length < FETCH_SIZE ? undefined : allPages.reduce((n, page) => n + page.length, 0),
    // Batches add documents in the background: read afresh on every visit.
    refetchOnMount: 'always',
  });
  const jobs = useBulkJobs();
  const stats = useStats();
  const [limit, setLimit] = useState(TIMELINE_STEP);
  const [forceOlder, setForceOlder] = useState(false);
  const autoPages = useRef(0);

  const documents = useMemo(() => pages.data?.pages.flat() ?? [], [pages.data]);
  // The estimate compares counts taken at about the same time: fresh stats, and no batch running.
  const { refetch: refetchStats } = stats;
  useEffect(() => {
    void refetchStats();
  }, [refetchStats]);
  const settled = !stats.isFetching && !(jobs.data ?? []).some((job) => isActive(job.status));
  const total = settled ? stats.data?.totalDocuments : undefined;

  const { entries, singlesMayRemain, estimateUncertain } = useMemo(() => {
    const list: TimelineEntry[] = [];
    const seenOf = new Map<string, number>();
    for (const job of jobs.data ?? []) {
      seenOf.set(job.id, 0);
      list.push({ kind: 'batch', key: `batch:${job.id}`, time: jobTime(job), job });
    }
    const orphans = new Map<string, Extract<TimelineEntry, { kind: 'orphan-batch' }>>();
    for (const d of documents) {
      const time = new Date(d.createdAt).getTime();
      const batchId = d.batchId ?? null;
      if (!batchId) {
        list.push({ kind: 'document', key: `doc:${d.id}`, time, document: d });
      } else if (seenOf.has(batchId)) {
        seenOf.set(batchId, (seenOf.get(batchId) ?? 0) + 1);
      } else if (!orphans.has(batchId)) {
        orphans.set(batchId, { kind: 'orphan-batch', key: `batch:${batchId}`, time, batchId, formatName: d.formatName });
      }
    }
    list.push(...orphans.values());

    let mayRemain = pages.hasNextPage;
    let uncertain = false;
    if (mayRemain && total !== undefined && jobs.data && orphans.size === 0) {
      const unreadBatchDocs = jobs.data.reduce((n, job) => n + Math.max(0, job.done - (seenOf.get(job.id) ?? 0)), 0);
      const unreadSingles = total - documents.length - unreadBatchDocs;
      mayRemain = unreadSingles > 0;
      // Below zero the batches claim more documents than exist: some were deleted, so the count is a guess.
      uncertain = unreadSingles < 0;
    }
    const reading = mayRemain || (pages.hasNextPage && forceOlder);
    const oldest = documents.at(-1);
    const cutoff = reading && oldest ? new Date(oldest.createdAt).getTime() : Number.NEGATIVE_INFINITY;
    return {
      entries: list.filter((e) => e.time >= cutoff).sort((a, b) => b.time - a.time),
      singlesMayRemain: reading,
      estimateUncertain: uncertain && !forceOlder,
    };
  }, [documents, jobs.data, pages.hasNextPage, total, forceOlder]);

  const { isFetchingNextPage, fetchNextPage } = pages;
  const short = entries.length < limit;
  useEffect(() => {
    if (!short || !singlesMayRemain || isFetchingNextPage || autoPages.current >= MAX_AUTO_PAGES) return;
    autoPages.current += 1;
    void fetchNextPage();
  }, [short, singlesMayRemain, isFetchingNextPage, fetchNextPage]);

  return {
    entries: entries.slice(0, limit),
    isLoading: pages.isLoading || jobs.isLoading,
    // Without the batch list, batch documents still fold into one row each (orphan batches).
    error: pages.error,
    hasMore: entries.length > limit || singlesMayRemain,
    /** More pages exist, and the estimate that they hold only batch documents is not exact. */
    canLookOlder: estimateUncertain && pages.hasNextPage && entries.length <= limit,
    isFetchingMore: isFetchingNextPage,
    loadMore: () => {
      autoPages.current = 0;
      setLimit((n) => n + TIMELINE_STEP);
    },
    lookOlder: () => {
      autoPages.current = 0;
      setForceOlder(true);
      setLimit((n) => Math.max(n, entries.length) + TIMELINE_STEP);
    },
  };
}
