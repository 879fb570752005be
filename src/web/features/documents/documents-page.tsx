import { FileTextIcon, PlusIcon } from 'lucide-react';
import { Link } from 'wouter';
import { EmptyState } from '../../components/layout/empty-state';
import { PageHeader } from '../../components/layout/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { readApiError } from '../../lib/api';
import { formatDate, useDocuments } from '../formats/api';

export function DocumentsPage() {
  const { data, isLoading, error } = useDocuments();
  const documents = data ?? [];
  return (
    <>
      <PageHeader title="Recent Documents" description="Every PDF you generate is kept here, exactly as it was made." />
      {isLoading ? (
        <div className="space-y-3" aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : error ? (
        <p className="text-sm text-destructive" role="alert">
          {readApiError(error, 'Could not load your documents.').message}
        </p>
      ) : documents.length === 0 ? (
        <Card className="p-2">
          <EmptyState
            icon={FileTextIcon}
            title="No documents yet"
            description="Generate a document from one of your formats and it will show up here, ready to preview or download."
            action={
              <Button asChild>
                <Link href="/builder">
                  <PlusIcon /> Create your first format
                </Link>
              </Button>
            }
            className="border-0 bg-transparent py-16"
          />
        </Card>
      ) : (
        <Card className="divide-y">
          {documents.map((d) => (
            <div key={d.id} className="flex items-center justify-between gap-4 px-5 py-4">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium">{d.name}</p>
                <p className="text-xs text-muted-foreground">
                  {formatDate(d.createdAt, true)} · {d.formatName || 'Unknown'}
                </p>
              </div>
              <Badge variant="secondary">PDF</Badge>
            </div>
          ))}
        </Card>
      )}
    </>
  );
}
