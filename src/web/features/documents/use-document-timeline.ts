import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TBulkJob } from '../../../contract/bulk';
import type { TDocument } from '../../../contract/documents';
import { apiJson } from '../../lib/api';
import { isActive, useBulkJobs } from '../bulk/api';
import { DOCUMENTS_KEY } from '../formats/api';

/** Documents fetched per request: batch documents fold into one row, so pages are read in bulk. */
const FETCH_SIZE = 100;
/** Rows shown at first and added by each Load more. */
export const TIMELINE_STEP = 25;
/** Pages read in a row to fill the list before asking the person to Load more. */
const MAX_AUTO_PAGES = 10;

export type TimelineEntry =
  | { kind: 'document'; key: string; time: number; document: TDocument }
  | { kind: 'batch'; key: string; time: number; job: TBulkJob }
  /** A batch whose documents are listed but whose job is beyond the batches fetched. */
  | { kind: 'orphan-batch'; key: string; time: number; batchId: string; formatName: string; count: number };

function jobTime(job: TBulkJob): number {
  // A running batch is the newest thing there is; a finished one sits where its last document does.
  if (isActive(job.status)) return Number.POSITIVE_INFINITY;
  return new Date(job.finishedAt ?? job.startedAt ?? job.createdAt).getTime();
}

/**
 * Recent Documents as one timeline, newest first: documents made one at a time as themselves, and
 * each bulk batch as a single entry (from GET /api/bulk-jobs) instead of hundreds of rows.
 * Documents are paged; an entry older than the oldest document read so far waits until the pages
 * reach it, so the order never jumps.
 */
export function useDocumentTimeline() {
  const pages = useInfiniteQuery({
    queryKey: [...DOCUMENTS_KEY, 'timeline', FETCH_SIZE],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => apiJson<TDocument[]>('GET', `/api/documents?limit=${FETCH_SIZE}&offset=${pageParam}`),
    getNextPageParam: (lastPage, allPages) =>
      lastPage.length < FETCH_SIZE ? undefined : allPages.reduce((n, page) => n + page.length, 0),
  });
  const jobs = useBulkJobs();
  const [limit, setLimit] = useState(TIMELINE_STEP);
  const autoPages = useRef(0);

  const documents = useMemo(() => pages.data?.pages.flat() ?? [], [pages.data]);
  const entries = useMemo(() => {
    const list: TimelineEntry[] = [];
    const known = new Set<string>();
    for (const job of jobs.data ?? []) {
      known.add(job.id);
      list.push({ kind: 'batch', key: `batch:${job.id}`, time: jobTime(job), job });
    }
    const orphans = new Map<string, Extract<TimelineEntry, { kind: 'orphan-batch' }>>();
    for (const d of documents) {
      const time = new Date(d.createdAt).getTime();
      const batchId = d.batchId ?? null;
      if (!batchId) {
        list.push({ kind: 'document', key: `doc:${d.id}`, time, document: d });
      } else if (!known.has(batchId)) {
        const orphan = orphans.get(batchId);
        if (orphan) orphan.count += 1;
        else orphans.set(batchId, { kind: 'orphan-batch', key: `batch:${batchId}`, time, batchId, formatName: d.formatName, count: 1 });
      }
    }
    list.push(...orphans.values());
    const oldest = documents.at(-1);
    const cutoff = pages.hasNextPage && oldest ? new Date(oldest.createdAt).getTime() : Number.NEGATIVE_INFINITY;
    return list.filter((e) => e.time >= cutoff).sort((a, b) => b.time - a.time);
  }, [documents, jobs.data, pages.hasNextPage]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const short = entries.length < limit;
  useEffect(() => {
    if (!short || !hasNextPage || isFetchingNextPage || autoPages.current >= MAX_AUTO_PAGES) return;
    autoPages.current += 1;
    void fetchNextPage();
  }, [short, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return {
    entries: entries.slice(0, limit),
    isLoading: pages.isLoading || jobs.isLoading,
    // Without the batch list, batch documents still fold into one row each (orphan batches).
    error: pages.error,
    hasMore: entries.length > limit || hasNextPage,
    isFetchingMore: isFetchingNextPage,
    loadMore: () => {
      autoPages.current = 0;
      setLimit((n) => n + TIMELINE_STEP);
    },
  };
}
