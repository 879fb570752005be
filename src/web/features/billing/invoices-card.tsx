import { useMutation, useQuery } from '@tanstack/react-query';
import { DownloadIcon, FileTextIcon, Loader2Icon } from 'lucide-react';
import { LoadingText, QueryState } from '../../components/query-state';
import { formatMinorUnits } from '../../../contract/plan-catalogue';
import type { TInvoiceSummary } from '../../../contract/billing';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { toast } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { billingKeys } from '../../lib/query-keys';
import { formatDate } from '../../lib/utils';
import { billingApi } from './api';

const STATUS: Record<TInvoiceSummary['status'], { label: string; variant: 'success' | 'secondary' | 'outline' }> = {
  paid: { label: 'Paid', variant: 'success' },
  partially_refunded: { label: 'Partly refunded', variant: 'outline' },
  refunded: { label: 'Refunded', variant: 'secondary' },
};

/** Saves a blob under a file name, as a download link would. */
function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Every payment's invoice, newest first, each downloadable as a PDF. */
export function InvoicesCard() {
  const invoices = useQuery({ queryKey: billingKeys.invoices, queryFn: billingApi.invoices });
  const download = useMutation({
    mutationFn: async (invoice: TInvoiceSummary) => saveBlob(await billingApi.invoicePdf(invoice.id), `formwork-invoice-${invoice.number}.pdf`),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: readApiError(error, 'Could not download the invoice. Please try again.').message }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Invoices</CardTitle>
        <CardDescription>One for every payment, with the seller's details, your period and the payment reference.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={invoices}
          loading={<LoadingText>Loading...</LoadingText>}
          errorText="Could not load your invoices. Please reload the page."
          isEmpty={invoices.data?.length === 0}
          empty={
            <div className="flex items-center gap-3 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
              <FileTextIcon className="size-5 shrink-0" aria-hidden />
              No invoices yet. Each payment brings one, ready to download.
            </div>
          }
        >
          <ul className="divide-y rounded-lg border" aria-label="Invoices">
            {(invoices.data ?? []).map((invoice) => {
              const status = STATUS[invoice.status];
              const busy = download.isPending && download.variables?.id === invoice.id;
              return (
                <li key={invoice.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:gap-4" data-testid="invoice-row">
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium">
                      {invoice.number} · {invoice.planName}, {invoice.cycle === 'yearly' ? 'yearly' : 'monthly'}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      Paid {formatDate(invoice.issuedAt)} · for {formatDate(invoice.periodStart)} – {formatDate(invoice.periodEnd)}
                    </p>
                  </div>
                  <div className="flex items-center gap-3">
                    <p className="text-sm font-semibold tabular-nums">{formatMinorUnits(invoice.amount, invoice.currency)}</p>
                    <Badge variant={status.variant}>{status.label}</Badge>
                    <Button
                      className="ml-auto sm:ml-0"
                      variant="outline"
                      size="sm"
                      onClick={() => download.mutate(invoice)}
                      disabled={busy}
                      aria-label={`PDF of invoice ${invoice.number}`}
                    >
                      {busy ? <Loader2Icon className="animate-spin" aria-hidden /> : <DownloadIcon aria-hidden />} PDF
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        </QueryState>
      </CardContent>
    </Card>
  );
}
