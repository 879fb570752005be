import type { TBillingOverview } from '../../../contract/billing';
import { UsageMeter } from '../../components/ui/usage-meter';
import { formatBytes, formatDate, formatNumber } from '../../lib/utils';

/** Images kept (uploads and images fetched by address) against the plan's allowance, in bytes. */
export function StorageMeter({ used, limit, testId }: { used: number; limit: number; testId: string }) {
  return <UsageMeter label="Image storage" progressLabel="Image storage used" used={used} limit={limit} show={formatBytes} testId={testId} />;
}

/** Signature requests count by calendar month (UTC), whatever the billing period. */
function nextCalendarMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** This period's usage against the plan: documents, signature requests, formats, image storage. */
export function UsageMeters({ usage }: { usage: TBillingOverview['usage'] }) {
  return (
    <dl className="grid gap-6 border-t pt-6 sm:grid-cols-2 lg:grid-cols-4">
      <UsageMeter
        label="Documents this month"
        progressLabel="Documents generated this month"
        used={usage.generations.used}
        limit={usage.generations.limit}
        show={formatNumber}
        testId="billing-generations"
        note={`Resets on ${formatDate(usage.periodEnd)}`}
      />
      <UsageMeter
        label="Signature requests"
        progressLabel="Signature requests sent this month"
        used={usage.signatureRequests.used}
        limit={usage.signatureRequests.limit}
        show={formatNumber}
        testId="billing-signature-requests"
        note={`Resets on ${formatDate(nextCalendarMonth())}`}
      />
      <UsageMeter
        label="Formats"
        progressLabel="Formats used"
        used={usage.formats.used}
        limit={usage.formats.limit}
        show={formatNumber}
        testId="billing-formats"
        note={usage.formats.limit !== null && usage.formats.used > usage.formats.limit ? 'Formats beyond the limit are read-only.' : undefined}
      />
      <StorageMeter used={usage.storage.usedBytes} limit={usage.storage.limitBytes} testId="billing-storage" />
    </dl>
  );
}
