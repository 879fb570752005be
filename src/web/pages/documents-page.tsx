import { FileTextIcon, Loader2Icon, PlusIcon } from 'lucide-react';
import { useId } from 'react';
import { useLocation, useSearch } from 'wouter';
import { LinkButton } from '../components/ui/link-button';
import { EmptyStateCard } from '../components/layout/empty-state';
import { PageHeader } from '../components/layout/page-header';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { QueryState, SkeletonList } from '../components/query-state';
import { formatNumber } from '../lib/utils';
import { useStats } from '../hooks/use-stats';
import { BatchRow } from '../features/documents/batch-row';
import { DocumentListHeader, DocumentRow } from '../features/documents/document-row';
import { useConfirmDelete } from '../features/documents/use-confirm-delete';
import { useDocumentTimeline, type TimelineEntry } from '../features/documents/use-document-timeline';
import { NativeSelect } from '../components/ui/native-select';
import { Label } from '../components/ui/label';
import { inSentence, useMadeBy, type TMadeBy } from '../features/teams/made-by';
import { useTeamId } from '../lib/workspace';

/** The "Made by" filter's place in the address: a member's user id. */
const MADE_BY_PARAM = 'by';

function showingText(entries: readonly TimelineEntry[], total: number | undefined, by: string | null): string {
  const singles = entries.filter((e) => e.kind === 'document').length;
  const batches = entries.length - singles;
  const parts: string[] = [];
  if (singles > 0 || batches === 0) parts.push(`${formatNumber(singles)} ${singles === 1 ? 'document' : 'documents'}`);
  if (batches > 0) parts.push(`${formatNumber(batches)} ${batches === 1 ? 'batch' : 'batches'}`);
  // The total counts the whole workspace, which one member's list is not.
  const all = total !== undefined && by === null ? ` · ${formatNumber(total)} generated in all` : '';
  return `Showing ${parts.join(' and ')}${all}${by === null ? '' : ` made by ${by}`}`;
}

/** A team's "Made by" select: Everyone, You, then each member by name. */
function MadeByFilter({ madeBy, value, onChange }: { madeBy: TMadeBy; value: string | null; onChange: (userId: string | null) => void }) {
  const id = useId();
  const known = value === null || madeBy.members.some((m) => m.userId === value);
  return (
    <div className="mb-4 flex items-center gap-3">
      <Label htmlFor={id} className="shrink-0">
        Made by
      </Label>
      <NativeSelect id={id} className="w-full sm:w-64" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">Everyone</option>
        {madeBy.members.map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.userId === madeBy.meId ? 'You' : m.name}
          </option>
        ))}
        {/* A link to someone who has left the team since still shows what it names. */}
        {!known && <option value={value}>Former member</option>}
      </NativeSelect>
    </div>
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
  // Only a team's list is filtered; the personal workspace ignores a stray parameter.
  const by = (useTeamId() !== null && new URLSearchParams(search).get(MADE_BY_PARAM)) || null;
  const timeline = useDocumentTimeline(by);
  const stats = useStats();
  const { confirmDeleteDocument, pendingId, dialog } = useConfirmDelete();
  const total = stats.data?.totalDocuments;
  const byName = by === null || !madeBy ? null : madeBy.nameOf(by);

  function filterBy(userId: string | null) {
    const params = new URLSearchParams(window.location.search);
    if (userId) params.set(MADE_BY_PARAM, userId);
    else params.delete(MADE_BY_PARAM);
    const query = params.toString();
    navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, { replace: true });
  }

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
      {madeBy && <MadeByFilter madeBy={madeBy} value={by} onChange={filterBy} />}
      <QueryState
        query={timeline}
        loading={<SkeletonList count={4} />}
        errorText="Could not load your documents."
        isEmpty={timeline.entries.length === 0}
        empty={
          byName !== null ? (
            <EmptyStateCard
              icon={FileTextIcon}
              title={byName === 'You' ? 'You have made no documents here yet' : `No documents made by ${byName}`}
              description="Documents made one at a time show up here. Spreadsheet batches are listed under Everyone."
              action={
                <Button variant="outline" onClick={() => filterBy(null)}>
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
            {showingText(timeline.entries, total, byName === null ? null : inSentence(byName))}
          </p>
          {timeline.moreFailed && (
            <p className="text-sm text-destructive" role="alert">
              Could not load more documents. Check your connection and try again.
            </p>
          )}
          {timeline.hasMore && (
            <Button variant="outline" onClick={timeline.loadMore} disabled={timeline.isFetchingMore}>
              {timeline.isFetchingMore && <Loader2Icon className="animate-spin" aria-hidden />}
              {timeline.isFetchingMore ? 'Loading...' : timeline.moreFailed ? 'Try again' : 'Load more'}
            </Button>
          )}
        </div>
      </QueryState>
      {dialog}
    </>
  );
}
