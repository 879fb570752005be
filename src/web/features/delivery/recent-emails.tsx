import { MailIcon } from 'lucide-react';
import { EmptyState } from '../../components/layout/empty-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { QueryState } from '../../components/query-state';
import { Skeleton } from '../../components/ui/skeleton';
import { useRecentDeliveries } from './api';
import { DeliveryLog } from './delivery-log';

/** The delivery log across documents: the latest emails sent one at a time (mail merges have their batch's page). */
export function RecentEmails() {
  const recent = useRecentDeliveries(20);
  const list = recent.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent emails</CardTitle>
        <CardDescription>The last 20 documents you emailed, whether they went out, and what the mail server answered.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={recent}
          loading={<Skeleton className="h-24" />}
          errorText="Could not load your emails."
          isEmpty={list.length === 0}
          empty={
            <EmptyState icon={MailIcon} title="No emails yet" description="Email a document from its actions or right after generating it." className="py-8" />
          }
        >
          <DeliveryLog deliveries={list} documentNames={Object.fromEntries(list.map((d) => [d.id, d.documentName]))} />
        </QueryState>
      </CardContent>
    </Card>
  );
}
