import { FileTextIcon, Loader2Icon, PlusIcon, SearchXIcon } from 'lucide-react';
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { LinkButton } from '../components/ui/link-button';
import { EmptyStateCard } from '../components/layout/empty-state';
import { PageHeader } from '../components/layout/page-header';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { LoadError } from '../components/ui/load-error';
import { QueryState, SkeletonList } from '../components/query-state';
import { readApiError } from '../lib/api';
import { dayErrors, hasDayErrors, withServerDayErrors } from '../lib/day-filter';
import { formatNumber } from '../lib/utils';
import { useStats } from '../hooks/use-stats';
import { BatchRow } from '../features/documents/batch-row';
import { DocumentListHeader, DocumentRow } from '../features/documents/document-row';
import { useConfirmDelete } from '../features/documents/use-confirm-delete';
import { useDocumentTimeline, type TimelineEntry } from '../features/documents/use-document-timeline';
import { DocumentFiltersBar } from '../features/documents/document-filters-bar';
import { filtersOf, isSearching, NO_FILTERS, withFilters, type TListFilters } from '../features/documents/document-filters';
import { inSentence, useMadeBy } from '../features/teams/made-by';
import { useTeamId } from '../lib/workspace';

function showingText(entries: readonly TimelineEntry[], total: number | undefined, by: string | null, searching: boolean): string {
  const singles = entries.filter((e) => e.kind === 'document').length;
  const batches = entries.length - singles;
  const parts: string[] = [];
  if (singles > 0 || batches === 0) parts.push(`${formatNumber(singles)} ${singles === 1 ? 'document' : 'documents'}`);
  if (batches > 0) parts.push(`${formatNumber(batches)} ${batches === 1 ? 'batch' : 'batches'}`);
  // The total counts the whole workspace, which a filtered list is not.
  const all = total !== undefined && by === null && !searching ? ` · ${formatNumber(total)} generated in all` : '';
  return `Showing ${parts.join(' and ')}${searching ? (entries.length === 1 ? ' that matches' : ' that match') : ''}${all}${by === null ? '' : ` made by ${by}`}`;
}

/**
 * Filters the list could not be read with: what went wrong (the dates' own messages sit on their
 * fields), and the way back to every document, which a failed search must not take away.
 */
function FilterError({ error, onClear }: { error: unknown; onClear: () => void }) {
  return (
    <Card className="grid justify-items-start gap-3 p-5">
      {error ? (
        <LoadError error={error} fallback="Could not search your documents." />
      ) : (
        <p className="text-sm text-muted-foreground">Fix the From or To date above, or clear the filters to see every document.</p>
      )}
      <Button variant="outline" onClick={onClear}>
        Clear filters
      </Button>
    </Card>
  );
}

/**
 * Recent Documents: documents made one at a time as rows, and each spreadsheet batch as one row
 * that leads to its batch page, newest first.
 */
export function DocumentsPage() {
  const madeBy = useMadeBy();
  const [, navigate] = useLocation();
  const search = useSearch();
  // Only a team's list is filtered by member; the personal workspace ignores a stray parameter.
  const filters = filtersOf(search, useTeamId() !== null);
  const by = filters.createdBy || null;
  const searching = isSearching(filters);
  const ownDayErrors = dayErrors(filters.from, filters.to);
  // Days the server would refuse are not sent: the fields say what is wrong instead.
  const timeline = useDocumentTimeline(filters, !hasDayErrors(ownDayErrors));
  const fieldErrors = withServerDayErrors(ownDayErrors, timeline.error ? readApiError(timeline.error).fields : {});
  const stats = useStats();
  const { confirmDeleteDocument, pendingId, dialog } = useConfirmDelete();
  const total = stats.data?.totalDocuments;
  const byName = by === null || !madeBy ? null : madeBy.nameOf(by);

  const filterBy = useCallback(
    (next: TListFilters) => {
      const query = withFilters(window.location.search, next);
      navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, { replace: true });
    },
    [navigate],
  );
  const clearFilters = () => filterBy(NO_FILTERS);

  return (
    <>
      <PageHeader
        title="Recent Documents"
        description="Every PDF you generate is kept here, exactly as it was made. Spreadsheet batches are grouped into one row each."
        actions={
          <LinkButton variant="outline" href="/formats" icon={PlusIcon}>
            Generate from a format
          </LinkButton>
        }
      />
      <DocumentFiltersBar filters={filters} onChange={filterBy} madeBy={madeBy} dayErrors={fieldErrors} />
      {hasDayErrors(fieldErrors) || (searching && timeline.error) ? (
        <FilterError error={hasDayErrors(fieldErrors) ? null : timeline.error} onClear={clearFilters} />
      ) : (
        <QueryState
          query={timeline}
          loading={<SkeletonList count={4} />}
          errorText="Could not load your documents."
          isEmpty={timeline.entries.length === 0}
          empty={
            searching ? (
              <EmptyStateCard
                icon={SearchXIcon}
                title="No documents match"
                description="Nothing you can see here matches this search and these filters. Try fewer words or a wider range of days."
                action={
                  <Button variant="outline" onClick={clearFilters}>
                    Clear filters
                  </Button>
                }
              />
            ) : byName !== null ? (
              <EmptyStateCard
                icon={FileTextIcon}
                title={byName === 'You' ? 'You have made no documents here yet' : `No documents made by ${byName}`}
                description="Documents and spreadsheet batches they make show up here."
                action={
                  <Button variant="outline" onClick={clearFilters}>
                    Show everyone’s documents
                  </Button>
                }
              />
            ) : (
              <EmptyStateCard
                icon={FileTextIcon}
                title="No documents yet"
                description="Generate a document from one of your formats, or many at once from a spreadsheet, and it will show up here, ready to preview or download."
                action={
                  <LinkButton href="/formats" icon={PlusIcon}>
                    Generate your first document
                  </LinkButton>
                }
              />
            )
          }
        >
          <Card className="overflow-hidden">
            <DocumentListHeader withFormat withMadeBy={madeBy !== null} />
            <ul className="divide-y" aria-label="Documents and batches">
              {timeline.entries.map((e) =>
                e.kind === 'document' ? (
                  <DocumentRow
                    key={e.key}
                    document={e.document}
                    withFormat
                    madeBy={madeBy?.nameOf(e.document.createdBy)}
                    deleting={pendingId === e.document.id}
                    onDelete={() => confirmDeleteDocument(e.document)}
                  />
                ) : (
                  <BatchRow key={e.key} job={e.job} />
                ),
              )}
            </ul>
          </Card>
          <div className="mt-5 flex flex-col items-center gap-3">
            <p className="text-xs text-muted-foreground" aria-live="polite">
              {showingText(timeline.entries, total, byName === null ? null : inSentence(byName), searching)}
            </p>
            {timeline.moreFailed && <LoadError error={timeline.moreError} fallback="Could not load more documents. Try again." />}
            {timeline.hasMore && (
              <Button variant="outline" onClick={timeline.loadMore} disabled={timeline.isFetchingMore}>
                {timeline.isFetchingMore && <Loader2Icon className="animate-spin" aria-hidden />}
                {timeline.isFetchingMore ? 'Loading...' : timeline.moreFailed ? 'Try again' : 'Load more'}
              </Button>
            )}
          </div>
        </QueryState>
      )}
      {dialog}
    </>
  );
}
