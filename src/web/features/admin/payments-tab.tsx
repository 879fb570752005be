import { FileDownIcon, FilterXIcon, Loader2Icon, ReceiptTextIcon, SearchIcon } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { GATEWAY_NAMES, ZGatewayName } from '../../../contract/admin';
import { ZInvoiceStatus, type TAdminPayment } from '../../../contract/billing';
import { FIRST_DAY, LAST_DAY } from '../../../contract/dates';
import type { TPlanCatalogue } from '../../../contract/plans';
import { formatMinorUnits } from '../../../contract/plan-catalogue';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { QueryState, SkeletonList } from '../../components/query-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { LoadError } from '../../components/ui/load-error';
import { Pager } from '../../components/ui/pager';
import { Skeleton } from '../../components/ui/skeleton';
import { usePlans } from '../../hooks/use-plans';
import { toastApiError } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { dayErrors, hasDayErrors, withServerDayErrors, type TDayErrors } from '../../lib/day-filter';
import { cn, formatDate, formatNumber } from '../../lib/utils';
import { NativeSelect } from './admin-ui';
import { useAdminPayments, useDownloadInvoice, type TPaymentsFilter } from './api';
import { CYCLE_LABELS, GATEWAY_LABELS } from './labels';

const PAGE_SIZE = 25;

const STATUS_LABELS: Record<TAdminPayment['status'], string> = {
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};
const STATUS_VARIANTS = { paid: 'success', partially_refunded: 'soft', refunded: 'secondary' } as const;

/** The filter as the address holds it (`?tab=payments&status=paid&page=2`): anything unreadable is ignored. */
function readFilter(search: string) {
  const params = new URLSearchParams(search);
  const status = ZInvoiceStatus.safeParse(params.get('status'));
  const gateway = ZGatewayName.safeParse(params.get('gateway'));
  // A day that is not one stays as written, for the field to say so rather than list every payment.
  const day = (key: string) => (params.get(key) ?? '').trim().slice(0, 40);
  const page = Number(params.get('page'));
  return {
    status: status.success ? status.data : ('' as const),
    gateway: gateway.success ? gateway.data : ('' as const),
    email: (params.get('email') ?? '').trim(),
    from: day('from'),
    to: day('to'),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}
type TFilterState = ReturnType<typeof readFilter>;

function planName(catalogue: TPlanCatalogue, id: TAdminPayment['planId']): string {
  return catalogue.find((p) => p.id === id)?.name ?? id;
}

function StatusBadge({ status }: { status: TAdminPayment['status'] }) {
  return (
    <Badge variant={STATUS_VARIANTS[status]} data-testid="payment-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

function Amount({ payment }: { payment: TAdminPayment }) {
  return (
    <span className="whitespace-nowrap tabular-nums">
      <span className="font-medium text-foreground">{formatMinorUnits(payment.amount, payment.currency)}</span>
      <span className="ml-1 text-[11px] font-medium text-muted-foreground">{payment.currency}</span>
    </span>
  );
}

function Refunded({ payment }: { payment: TAdminPayment }) {
  return payment.refunded > 0 ? (
    <span className="whitespace-nowrap text-destructive tabular-nums">−{formatMinorUnits(payment.refunded, payment.currency)}</span>
  ) : (
    <span className="text-muted-foreground" aria-label="Nothing refunded">
      —
    </span>
  );
}

/** An email on two lines, name then domain, so a narrow column cuts neither short. */
function Email({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  const name = at > 0 ? email.slice(0, at) : email;
  const domain = at > 0 ? email.slice(at) : '';
  return (
    <span className="block min-w-0" title={email}>
      <span className="block truncate font-medium text-foreground">{name}</span>
      {domain && <span className="block truncate text-xs text-muted-foreground">{domain}</span>}
    </span>
  );
}

/** Whole, never cut: it is what an admin looks up at the gateway. */
function Reference({ value }: { value: string }) {
  return (
    <span className="block max-w-full font-mono text-[12px] leading-snug break-all text-muted-foreground" title={value}>
      {value}
    </span>
  );
}

function InvoiceButton({ payment, className }: { payment: TAdminPayment; className?: string }) {
  const download = useDownloadInvoice();
  if (!payment.invoiceId || !payment.invoiceNumber) return <span className="text-[13px] text-muted-foreground">No invoice</span>;
  const { invoiceId, invoiceNumber } = payment;
  return (
    <Button
      variant="ghost"
      size="sm"
      className={cn('-mx-2 font-mono text-[12.5px]', className)}
      disabled={download.isPending}
      aria-label={`Download invoice ${invoiceNumber} (PDF)`}
      title="Download the invoice (PDF)"
      onClick={() =>
        download.mutate(
          { invoiceId, invoiceNumber },
          {
            onError: toastApiError('Could not download the invoice'),
          },
        )
      }
    >
      {download.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <FileDownIcon aria-hidden />}
      {invoiceNumber}
    </Button>
  );
}

/** What came in over the whole filter, per currency, less refunds. */
function Totals({ total, totals }: { total: number; totals: { currency: 'USD' | 'INR'; amount: number }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap" aria-label="Totals for this filter" data-testid="payment-totals">
      <Card className="px-4 py-3 sm:min-w-40">
        <dt className="text-xs text-muted-foreground">Payments</dt>
        <dd className="mt-0.5 text-lg font-semibold tabular-nums">{formatNumber(total)}</dd>
      </Card>
      {totals.map((t) => (
        <Card key={t.currency} className="px-4 py-3 sm:min-w-40">
          <dt className="text-xs text-muted-foreground">Received in {t.currency}</dt>
          <dd className="mt-0.5 text-lg font-semibold tabular-nums">{formatMinorUnits(t.amount, t.currency)}</dd>
        </Card>
      ))}
    </dl>
  );
}

/** One of a fixed set of values, or all of them (''). */
function FilterSelect<T extends string>({
  id,
  label,
  all,
  value,
  options,
  labels,
  onChange,
}: {
  id: string;
  label: string;
  all: string;
  value: T | '';
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T | '') => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(e) => onChange(options.find((o) => o === e.target.value) ?? '')}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labels[o]}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

const REVERSED = 'The end date is before the start date, so nothing can match.';

function Filters({ filter, onChange, fieldErrors }: { filter: TFilterState; onChange: (next: Partial<TFilterState>) => void; fieldErrors: TDayErrors }) {
  const [email, setEmail] = useState(filter.email);
  // A filter cleared or changed through the address puts its email in the box.
  const [shown, setShown] = useState(filter.email);
  if (shown !== filter.email) {
    setShown(filter.email);
    if (email.trim() !== filter.email) setEmail(filter.email);
  }
  // Typing settles before it becomes the filter (and a new address).
  useEffect(() => {
    if (email.trim() === filter.email) return;
    const timer = setTimeout(() => onChange({ email: email.trim() }), 300);
    return () => clearTimeout(timer);
  }, [email, filter.email, onChange]);
  const reversed = !hasDayErrors(fieldErrors) && filter.from !== '' && filter.to !== '' && filter.from > filter.to;
  const fromError = fieldErrors.from;
  const toError = fieldErrors.to ?? (reversed ? REVERSED : undefined);

  return (
    <Card className="p-4">
      <div className="grid grid-cols-2 gap-3 md:grid-cols-[minmax(0,1.6fr)_repeat(4,minmax(0,1fr))] md:items-end">
        <div className="col-span-2 grid gap-1.5 md:col-span-1">
          <Label htmlFor="payments-email">Customer email</Label>
          <div className="relative">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input
              id="payments-email"
              type="search"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="Part of an email"
              autoComplete="off"
              className="pl-9"
            />
          </div>
        </div>
        <FilterSelect
          id="payments-status"
          label="Status"
          all="All statuses"
          value={filter.status}
          options={ZInvoiceStatus.options}
          labels={STATUS_LABELS}
          onChange={(status) => onChange({ status })}
        />
        <FilterSelect
          id="payments-gateway"
          label="Gateway"
          all="All gateways"
          value={filter.gateway}
          options={GATEWAY_NAMES}
          labels={GATEWAY_LABELS}
          onChange={(gateway) => onChange({ gateway })}
        />
        <div className="grid gap-1.5">
          <Label htmlFor="payments-from">From</Label>
          <Input
            id="payments-from"
            type="date"
            value={filter.from}
            min={FIRST_DAY}
            max={filter.to && !fieldErrors.to ? filter.to : LAST_DAY}
            aria-invalid={fromError ? true : undefined}
            aria-describedby={fromError ? 'payments-from-error' : undefined}
            onChange={(e) => onChange({ from: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="payments-to">To</Label>
          <Input
            id="payments-to"
            type="date"
            value={filter.to}
            min={filter.from && !fieldErrors.from ? filter.from : FIRST_DAY}
            max={LAST_DAY}
            aria-invalid={toError ? true : undefined}
            aria-describedby={toError ? 'payments-to-error' : undefined}
            onChange={(e) => onChange({ to: e.target.value })}
          />
        </div>
      </div>
      {fromError && (
        <p id="payments-from-error" className="mt-2 text-[13px] text-destructive" role="alert">
          From: {fromError}
        </p>
      )}
      {toError && (
        <p id="payments-to-error" className="mt-2 text-[13px] text-destructive" role="alert">
          To: {toError}
        </p>
      )}
    </Card>
  );
}

const PAYMENT_COLUMNS: readonly DataTableColumn[] = [
  { header: 'Date', width: 'w-[122px]', className: 'py-2.5 pr-3 pl-5 font-medium' },
  { header: 'Customer', className: 'px-3 py-2.5 font-medium' },
  { header: 'Plan', width: 'w-[92px]', className: 'px-3 py-2.5 font-medium' },
  { header: 'Amount', width: 'w-[112px]', className: 'px-3 py-2.5 text-right font-medium' },
  { header: 'Refunded', width: 'w-[88px]', className: 'px-3 py-2.5 text-right font-medium' },
  { header: 'Status', width: 'w-[124px]', className: 'px-3 py-2.5 font-medium' },
  { header: 'Gateway', width: 'w-[128px]', className: 'px-3 py-2.5 font-medium' },
  { header: 'Invoice', width: 'w-[124px]', className: 'py-2.5 pr-5 pl-3 font-medium' },
];

function PaymentsTable({ payments, catalogue }: { payments: TAdminPayment[]; catalogue: TPlanCatalogue }) {
  return (
    <DataTable className="w-full table-fixed text-left text-sm" aria-label="Payments" columns={PAYMENT_COLUMNS}>
      {payments.map((p) => (
        <tr key={p.id} data-testid="payment-row" className="align-top transition-colors hover:bg-muted/30">
          <td className="py-3 pr-3 pl-5 text-[13px] tabular-nums">
            <span className="block whitespace-nowrap text-foreground">{formatDate(p.createdAt)}</span>
            <span className="block text-xs whitespace-nowrap text-muted-foreground">
              {new Date(p.createdAt).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}
            </span>
          </td>
          <td className="px-3 py-3">
            <Email email={p.user.email} />
          </td>
          <td className="px-3 py-3">
            <span className="block truncate text-foreground">{planName(catalogue, p.planId)}</span>
            <span className="block text-xs text-muted-foreground">{CYCLE_LABELS[p.cycle]}</span>
          </td>
          <td className="px-3 py-3 text-right">
            <Amount payment={p} />
          </td>
          <td className="px-3 py-3 text-right">
            <Refunded payment={p} />
          </td>
          <td className="px-3 py-3">
            <StatusBadge status={p.status} />
          </td>
          <td className="px-3 py-3">
            <span className="block text-foreground">{GATEWAY_LABELS[p.gateway]}</span>
            <Reference value={p.gatewayReference} />
          </td>
          <td className="py-2 pr-5 pl-3">
            <InvoiceButton payment={p} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function PaymentCard({ payment: p, catalogue }: { payment: TAdminPayment; catalogue: TPlanCatalogue }) {
  return (
    <Card className="p-4" data-testid="payment-card">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-base">
            <Amount payment={p} />
          </p>
          {p.refunded > 0 && (
            <p className="text-[13px]">
              <Refunded payment={p} /> <span className="text-muted-foreground">refunded</span>
            </p>
          )}
        </div>
        <StatusBadge status={p.status} />
      </div>
      <p className="mt-2 truncate text-sm font-medium text-foreground" title={p.user.email}>
        {p.user.email}
      </p>
      <p className="text-xs text-muted-foreground tabular-nums">{formatDate(p.createdAt, true)}</p>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-2.5 border-t pt-3 text-xs">
        <div className="min-w-0">
          <dt className="text-muted-foreground">Plan</dt>
          <dd className="mt-0.5 truncate text-sm text-foreground">
            {planName(catalogue, p.planId)} · {CYCLE_LABELS[p.cycle]}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-muted-foreground">Gateway</dt>
          <dd className="mt-0.5 text-sm text-foreground">{GATEWAY_LABELS[p.gateway]}</dd>
        </div>
        <div className="col-span-2 min-w-0">
          <dt className="text-muted-foreground">Gateway reference</dt>
          <dd className="mt-0.5">
            <Reference value={p.gatewayReference} />
          </dd>
        </div>
      </dl>
      <div className="mt-3 flex items-center justify-between gap-2 border-t pt-2.5">
        <span className="text-xs text-muted-foreground">Invoice</span>
        <InvoiceButton payment={p} className="mx-0 -mr-2" />
      </div>
    </Card>
  );
}

/** Every payment taken, newest first, filtered through the address so a filtered view can be shared or reloaded. */
export function PaymentsTab() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filter = readFilter(search);
  const { plans: catalogue } = usePlans();

  const query: TPaymentsFilter = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.gateway ? { gateway: filter.gateway } : {}),
    ...(filter.email ? { email: filter.email } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
    limit: PAGE_SIZE,
    offset: (filter.page - 1) * PAGE_SIZE,
  };
  const ownDayErrors = dayErrors(filter.from, filter.to);
  // Days the server would refuse are not sent: the fields say what is wrong instead.
  const payments = useAdminPayments(query, !hasDayErrors(ownDayErrors));
  const fieldErrors = withServerDayErrors(ownDayErrors, payments.error ? readApiError(payments.error).fields : {});
  const filtered = Boolean(filter.status || filter.gateway || filter.email || filter.from || filter.to);

  // Stable, so the email box's debounce is not restarted by every render.
  const change = useCallback(
    (next: Partial<TFilterState>) => {
      const params = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(next)) {
        if (value === '' || value === 1) params.delete(key);
        else params.set(key, String(value));
      }
      // Any new filter starts again at its first page.
      if (!('page' in next)) params.delete('page');
      navigate(`${window.location.pathname}?${params.toString()}`, { replace: true });
    },
    [navigate],
  );

  function clearFilters() {
    change({ status: '', gateway: '', email: '', from: '', to: '' });
  }

  const data = payments.data;
  const list = data?.payments ?? [];
  const pager = {
    offset: query.offset,
    pageSize: PAGE_SIZE,
    shown: list.length,
    total: data?.total ?? 0,
    busy: payments.isFetching,
    onChange: (offset: number) => change({ page: offset / PAGE_SIZE + 1 }),
  };

  return (
    <div className="space-y-4">
      <Filters filter={filter} onChange={change} fieldErrors={fieldErrors} />

      {hasDayErrors(fieldErrors) || (filtered && payments.error) ? (
        // A failed filter keeps its way back to every payment.
        <Card className="grid justify-items-start gap-3 p-5">
          {hasDayErrors(fieldErrors) ? (
            <p className="text-sm text-muted-foreground">Fix the From or To date above, or clear the filters to see every payment.</p>
          ) : (
            <LoadError error={payments.error} fallback="Could not load payments." />
          )}
          <Button variant="outline" onClick={clearFilters}>
            <FilterXIcon aria-hidden /> Clear filters
          </Button>
        </Card>
      ) : (
        <QueryState
          query={payments}
          loading={
            <div className="space-y-3" aria-hidden>
              <Skeleton className="h-16 w-64" />
              <SkeletonList count={3} />
            </div>
          }
          errorText="Could not load payments."
          isEmpty={!data || data.total === 0}
          empty={
            <EmptyStateCard
              icon={filtered ? SearchIcon : ReceiptTextIcon}
              title={filtered ? 'No payments match these filters' : 'No payments yet'}
              description={
                filtered
                  ? 'Try a wider date range, another status or gateway, or a shorter part of the email.'
                  : 'Each payment a customer makes for a plan appears here, with its invoice. Customers can pay once a gateway is active in Payment Gateways.'
              }
              action={
                filtered ? (
                  <Button variant="outline" onClick={clearFilters}>
                    <FilterXIcon aria-hidden /> Clear filters
                  </Button>
                ) : undefined
              }
              className="py-14"
            />
          }
        >
          {() =>
            data && (
              <>
                <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
                  <Totals total={data.total} totals={data.totals} />
                  {filtered && (
                    <Button variant="ghost" size="sm" onClick={clearFilters} className="self-start sm:self-end">
                      <FilterXIcon aria-hidden /> Clear filters
                    </Button>
                  )}
                </div>
                <p className="text-xs text-muted-foreground">Received is what was paid, less refunds. The From and To dates are whole days in UTC.</p>
                <Card className={cn('hidden overflow-hidden xl:block', payments.isPlaceholderData && 'opacity-70')}>
                  <PaymentsTable payments={list} catalogue={catalogue} />
                  <Pager {...pager} label="Payments pages" />
                </Card>
                <div className={cn('space-y-3 xl:hidden', payments.isPlaceholderData && 'opacity-70')}>
                  <ul className="grid gap-3 md:grid-cols-2" aria-label="Payments">
                    {list.map((p) => (
                      <li key={p.id}>
                        <PaymentCard payment={p} catalogue={catalogue} />
                      </li>
                    ))}
                  </ul>
                  {data.total > PAGE_SIZE && (
                    <Card className="overflow-hidden [&>nav]:border-t-0">
                      <Pager {...pager} label="Payments pages (cards)" />
                    </Card>
                  )}
                </div>
              </>
            )
          }
        </QueryState>
      )}
    </div>
  );
}
