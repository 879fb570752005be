import { ArrowLeftIcon } from 'lucide-react';
import { Link } from 'wouter';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { FormatNotFound } from './format-not-found';
import { useFormat } from './use-format';

export function DataEntryPage({ formatId }: { formatId?: string }) {
  const format = useFormat(formatId);
  return (
    <>
      <PageHeader
        title={format.data?.name ? `Generate Document: ${format.data.name}` : 'Generate Document'}
        description={format.data?.description ?? 'Fill in the form to generate a PDF from this format.'}
        actions={
          <Button variant="outline" asChild>
            <Link href="/formats">
              <ArrowLeftIcon /> Back to My Formats
            </Link>
          </Button>
        }
      />
      {format.isLoading ? <Skeleton className="h-64" /> : format.data === null ? <FormatNotFound /> : null}
    </>
  );
}
