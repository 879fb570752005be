import { ArrowLeftIcon, LayoutTemplateIcon } from 'lucide-react';
import { Link } from 'wouter';
import { EmptyState } from '../../components/layout/empty-state';
import { PageHeader } from '../../components/layout/page-header';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { FormatNotFound } from './format-not-found';
import { useFormat } from './use-format';

export function BuilderPage({ formatId }: { formatId?: string }) {
  const format = useFormat(formatId);
  const backButton = (
    <Button variant="outline" asChild>
      <Link href="/">
        <ArrowLeftIcon /> Back to dashboard
      </Link>
    </Button>
  );

  if (formatId) {
    return (
      <>
        <PageHeader title="Format Builder" description={format.data?.name} actions={backButton} />
        {format.isLoading ? <Skeleton className="h-64" /> : format.data === null ? <FormatNotFound /> : null}
      </>
    );
  }

  return (
    <>
      <PageHeader title="Format Builder" description="Design a reusable template with named placeholders." actions={backButton} />
      <Card className="p-2">
        <EmptyState
          icon={LayoutTemplateIcon}
          title="No format open"
          description="The drag-and-drop builder is not part of this release yet. Your formats will be listed under My Formats."
          action={
            <Button variant="outline" asChild>
              <Link href="/formats">Go to My Formats</Link>
            </Button>
          }
          className="border-0 bg-transparent py-16"
        />
      </Card>
    </>
  );
}
