import { ArrowLeftIcon, FormInputIcon, PencilIcon, TableIcon } from 'lucide-react';
import { LinkButton } from '../components/ui/link-button';
import { useState } from 'react';
import { PageHeader } from '../components/layout/page-header';
import { Card } from '../components/ui/card';
import { Skeleton } from '../components/ui/skeleton';
import { QueryState, SkeletonList } from '../components/query-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { BulkUploadTab } from '../features/bulk/bulk-upload-tab';
import { DocumentForm } from '../features/data-entry/document-form';
import { formatEditHref } from '../features/formats/format-actions';
import { FormatNotFound } from '../features/formats/format-not-found';
import { useFormat } from '../features/formats/api';

type Tab = 'manual' | 'bulk';

export function DataEntryPage({ formatId }: { formatId?: string }) {
  const format = useFormat(formatId);
  const [tab, setTab] = useState<Tab>('manual');
  const data = format.data;

  return (
    <>
      <PageHeader
        title={data?.name ?? 'Generate Document'}
        description={data ? data.description || 'Fill in the form to generate a PDF from this format.' : 'Fill in the form to generate a PDF from this format.'}
        actions={
          <>
            <LinkButton variant="ghost" href="/formats" icon={ArrowLeftIcon}>
              My Formats
            </LinkButton>
            {data && (
              <LinkButton variant="outline" href={formatEditHref(data.id)} icon={PencilIcon}>
                Edit format
              </LinkButton>
            )}
          </>
        }
      />
      <QueryState
        query={format}
        loading={
          <Card className="space-y-5 p-6" aria-busy>
            <Skeleton className="h-10 w-64" />
            <SkeletonList count={4} className="grid gap-5 sm:grid-cols-2" />
          </Card>
        }
        errorText="Could not load this format."
        isEmpty={!data}
        empty={
          <Card className="p-2">
            <FormatNotFound />
          </Card>
        }
      >
        {() =>
          data && (
            <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
              <TabsList className="mb-4 w-full sm:w-fit">
                <TabsTrigger value="manual">
                  <FormInputIcon aria-hidden /> Manual Input
                </TabsTrigger>
                <TabsTrigger value="bulk">
                  <TableIcon aria-hidden /> Bulk Upload
                </TabsTrigger>
              </TabsList>
              <Card className="p-5 sm:p-7">
                <TabsContent value="manual" forceMount hidden={tab !== 'manual'}>
                  <DocumentForm key={`${data.id}:${data.version}`} format={data} onImportMultiData={() => setTab('bulk')} />
                </TabsContent>
                <TabsContent value="bulk">
                  <BulkUploadTab formatId={data.id} placeholders={data.placeholders} />
                </TabsContent>
              </Card>
            </Tabs>
          )
        }
      </QueryState>
    </>
  );
}
