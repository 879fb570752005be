import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TBulkJob } from '../../../contract/bulk';
import type { TDocument } from '../../../contract/documents';
import { api } from '../../lib/api';
import { documentKeys } from '../../lib/query-keys';
import { useBulkJobPages } from '../bulk/api';
import { documentsUrl } from './api';
import { isSearching, NO_FILTERS, type TListFilters } from './document-filters';

/** Rows shown at first and added by each Load more; also the page size of both lists read. */
export const TIMELINE_STEP = 25;

export type TimelineEntry = { kind: 'document'; key: string; time: number; document: TDocument } | { kind: 'batch'; key: string; time: number; job: TBulkJob };

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Where a batch sits: when it started (the order GET /api/bulk-jobs lists them in). */
export function batchTime(job: TBulkJob): number {
  return new Date(job.startedAt ?? job.createdAt).getTime();
}

/**
 * Documents newest first, a page at a time, as `filters` narrow them: made one at a time while
 * browsing, of every kind (a batch's too) while searching.
 */
function useDocumentPages(pageSize: number, filters: TListFilters, enabled: boolean) {
  const query = { ...filters, kind: isSearching(filters) ? undefined : 'single' };
  return useInfiniteQuery({
    enabled,
    // The query (without paging) tells one list from another.
    queryKey: documentKeys.singles(pageSize, documentsUrl(query)),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => api.get<TDocument[]>(documentsUrl({ ...query, limit: pageSize, offset: pageParam })),
    getNextPageParam: (lastPage, allPages) => (lastPage.length < pageSize ? undefined : allPages.reduce((n, page) => n + page.length, 0)),
    // Documents are made elsewhere too (the API, other tabs): read afresh on every visit.
    refetchOnMount: 'always',
  });
}

/**
 * Recent Documents as one timeline, newest first: documents made one at a time as themselves, and
 * each bulk batch as a single entry, placed when it started. Two lists are read a page at a
 * time, both newest first (GET /api/documents?kind=single and GET /api/bulk-jobs), and merged: an
 * entry is shown only once nothing older than it can still arrive from the other list's unread
 * pages, so the order never jumps as more is read.
 *
 * `filters.createdBy` (a team's "Made by" filter) lists only that member's documents and batches.
 * A search or another filter lists the documents that match, one by one whichever way they were
 * made, and no batch rows: a batch's documents are what is being looked for. Nothing is read
 * while `enabled` is false (filters the server would refuse).
 */
export function useDocumentTimeline(filters: TListFilters = NO_FILTERS, enabled = true) {
  const singles = useDocumentPages(TIMELINE_STEP, filters, enabled);
  const withBatches = !isSearching(filters);
  const batches = useBulkJobPages(TIMELINE_STEP, withBatches, filters.createdBy || null);
  const [limit, setLimit] = useState(TIMELINE_STEP);
  // Another filter is another list: it starts again from its first rows.
  const listKey = documentsUrl(filters);
  const [limitFor, setLimitFor] = useState(listKey);
  if (limitFor !== listKey) {
    setLimitFor(listKey);
    setLimit(TIMELINE_STEP);
  }

  // Pages are read by offset: something made (or deleted) between two page reads shifts the next
  // page by one, so an entry can come twice. The first sighting is kept.
  const documents = useMemo(() => uniqueBy(singles.data?.pages.flat() ?? [], (d) => d.id), [singles.data]);
  // A disabled query still hands out what it cached for Everyone: the filtered list ignores it.
  const batchPages = withBatches ? batches.data?.pages : undefined;
  const batchesHaveMore = withBatches && batches.hasNextPage;
  const jobs = useMemo(() => uniqueBy(batchPages?.flatMap((page) => page.jobs) ?? [], (j) => j.id), [batchPages]);

  const { entries, needs } = useMemo(() => {
    const singleEntries: TimelineEntry[] = documents.map((d) => ({
      kind: 'document',
      key: `doc:${d.id}`,
      time: new Date(d.createdAt).getTime(),
      document: d,
    }));
    const batchEntries: TimelineEntry[] = jobs.map((job) => ({
      kind: 'batch',
      key: `batch:${job.id}`,
      time: batchTime(job),
      job,
    }));
    // The oldest entry read from a list that has more pages: anything older may still be unread.
    const horizon = (list: TimelineEntry[], more: boolean) => (more && list.length > 0 ? list[list.length - 1]!.time : Number.NEGATIVE_INFINITY);
    const singlesHorizon = horizon(singleEntries, singles.hasNextPage);
    const batchesHorizon = horizon(batchEntries, batchesHaveMore);
    const cutoff = Math.max(singlesHorizon, batchesHorizon);
    return {
      entries: [...singleEntries, ...batchEntries].filter((e) => e.time >= cutoff).sort((a, b) => b.time - a.time),
      // The list whose horizon is the cutoff holds back the rest: read it further first.
      needs: cutoff === Number.NEGATIVE_INFINITY ? null : cutoff === singlesHorizon ? ('singles' as const) : ('batches' as const),
    };
  }, [documents, jobs, singles.hasNextPage, batchesHaveMore]);

  const fetching = singles.isFetchingNextPage || batches.isFetchingNextPage;
  // A failed page is not fetched again on its own (that would retry forever); Load more does.
  const pageFailed = singles.isFetchNextPageError || (withBatches && batches.isFetchNextPageError);
  const { fetchNextPage: fetchSingles } = singles;
  const { fetchNextPage: fetchBatches } = batches;
  const fetchNeeded = useCallback(() => {
    if (needs) void (needs === 'singles' ? fetchSingles() : fetchBatches());
  }, [needs, fetchSingles, fetchBatches]);
  useEffect(() => {
    if (entries.length >= limit || fetching || pageFailed) return;
    fetchNeeded();
  }, [entries.length, limit, fetching, pageFailed, fetchNeeded]);

  return {
    entries: entries.slice(0, limit),
    isLoading: singles.isLoading || batches.isLoading,
    // Only a list that never loaded replaces the page; a later failed page or poll keeps what is shown.
    error: (singles.data ? null : singles.error) ?? (batches.data || !withBatches ? null : batches.error),
    moreFailed: pageFailed,
    moreError: singles.isFetchNextPageError ? singles.error : pageFailed ? batches.error : null,
    hasMore: entries.length > limit || needs !== null,
    isFetchingMore: fetching && entries.length < limit,
    loadMore: () => {
      if (pageFailed) fetchNeeded();
      setLimit((n) => (pageFailed && entries.length < n ? n : n + TIMELINE_STEP));
    },
  };
}
