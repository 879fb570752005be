import { FileTextIcon, Loader2Icon, PlusIcon } from 'lucide-react';
import { Link } from 'wouter';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { formatNumber } from '../../lib/utils';
import { formatDate, useDocumentPages, useStats } from '../formats/api';
import { DocumentActions, DocumentBadges } from './document-actions';
import { useConfirmDelete } from './use-confirm-delete';

export function DocumentsPage() {
  const pages = useDocumentPages();
  const stats = useStats();
  const { confirmDeleteDocument, pendingId, dialog } = useConfirmDelete();
  const documents = pages.data?.pages.flat() ?? [];
  const total = stats.data?.totalDocuments;

  return (
    <>
      <PageHeader
        title="Recent Documents"
        description="Every PDF you generate is kept here, exactly as it was made."
        actions={
          <Button variant="outline" asChild>
            <Link href="/formats">
              <PlusIcon /> Generate from a format
            </Link>
          </Button>
        }
      />
      {pages.isLoading ? (
        <div className="space-y-3" aria-hidden>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : pages.error ? (
        <LoadError error={pages.error} fallback="Could not load your documents." />
      ) : documents.length === 0 ? (
        <EmptyStateCard
          icon={FileTextIcon}
          title="No documents yet"
          description="Generate a document from one of your formats and it will show up here, ready to preview or download."
          action={
            <Button asChild>
              <Link href="/formats">
                <PlusIcon /> Generate your first document
              </Link>
            </Button>
          }
        />
      ) : (
        <>
          <Card className="overflow-hidden">
            <div className="hidden grid-cols-[minmax(0,1fr)_180px_minmax(0,200px)_112px] gap-4 border-b bg-muted/40 px-5 py-2.5 text-xs font-medium text-muted-foreground md:grid">
              <span>Document</span>
              <span>Created</span>
              <span>Format</span>
              <span className="text-right">Actions</span>
            </div>
            <ul className="divide-y" aria-label="Documents">
              {documents.map((d) => (
                <li
                  key={d.id}
                  data-testid="document-row"
                  className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-1 px-4 py-3.5 sm:px-5 md:grid-cols-[minmax(0,1fr)_180px_minmax(0,200px)_112px]"
                >
                  <div className="flex min-w-0 items-center gap-3">
                    <span className="hidden size-9 shrink-0 items-center justify-center rounded-lg bg-destructive/10 text-destructive sm:flex" aria-hidden>
                      <FileTextIcon className="size-4" />
                    </span>
                    <div className="min-w-0">
                      <p className="line-clamp-2 text-sm font-medium break-words md:line-clamp-1" title={d.name}>
                        {d.name}
                      </p>
                      <div className="mt-0.5 flex flex-col text-xs text-muted-foreground md:hidden">
                        <span>{formatDate(d.createdAt, true)}</span>
                        <span className="truncate">Format: {d.formatName || 'Unknown'}</span>
                      </div>
                      <div className="mt-1 flex gap-1.5">
                        <DocumentBadges status={d.status} />
                      </div>
                    </div>
                  </div>
                  <span className="hidden text-sm text-muted-foreground tabular-nums md:block">{formatDate(d.createdAt, true)}</span>
                  <span
                    className={`hidden truncate text-sm md:block ${d.formatName && d.formatName !== 'Unknown' ? 'text-foreground' : 'text-muted-foreground italic'}`}
                  >
                    {d.formatName || 'Unknown'}
                  </span>
                  <div className="flex items-center justify-end">
                    <DocumentActions document={d} deleting={pendingId === d.id} onDelete={() => confirmDeleteDocument(d)} />
                  </div>
                </li>
              ))}
            </ul>
          </Card>
          <div className="mt-5 flex flex-col items-center gap-3">
            <p className="text-xs text-muted-foreground" aria-live="polite">
              Showing {formatNumber(documents.length)}
              {total !== undefined && total >= documents.length ? ` of ${formatNumber(total)}` : ''} documents
            </p>
            {pages.hasNextPage && (
              <Button variant="outline" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
                {pages.isFetchingNextPage && <Loader2Icon className="animate-spin" aria-hidden />}
                {pages.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            )}
          </div>
        </>
      )}
      {dialog}
    </>
  );
}
