import { LayoutTemplateIcon, PlusIcon } from 'lucide-react';
import { Link } from 'wouter';
import { EmptyState } from '../../components/layout/empty-state';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { readApiError } from '../../lib/api';
import { formatDate, useFormats } from './api';

export function FormatsPage() {
  const { data, isLoading, error } = useFormats();
  const formats = data ?? [];
  return (
    <>
      <PageHeader
        title="My Formats"
        description="Reusable templates with named placeholders. Fill one in to generate a PDF."
        actions={
          <Button asChild>
            <Link href="/builder">
              <PlusIcon /> Create New Format
            </Link>
          </Button>
        }
      />
      {isLoading ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-32" />
          ))}
        </div>
      ) : error ? (
        <p className="text-sm text-destructive" role="alert">
          {readApiError(error, 'Could not load your formats.').message}
        </p>
      ) : formats.length === 0 ? (
        <Card className="p-2">
          <EmptyState
            icon={LayoutTemplateIcon}
            title="No formats yet"
            description="Create your first format: add headings, paragraphs, tables and {{placeholders}}, and Formwork builds the form for you."
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
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {formats.map((f) => (
            <Card key={f.id} className="flex flex-col p-5">
              <p className="truncate font-semibold">{f.name}</p>
              <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{f.description || 'No description'}</p>
              <p className="mt-3 text-xs text-muted-foreground">Created {formatDate(f.createdAt)}</p>
              <div className="mt-4 flex gap-2">
                <Button variant="outline" size="sm" asChild>
                  <Link href={`/builder/${encodeURIComponent(f.id)}`}>Edit</Link>
                </Button>
              </div>
            </Card>
          ))}
        </div>
      )}
    </>
  );
}
