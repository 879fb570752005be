import type { TBillingOverview } from '../../../contract/billing';
import { UsageMeter } from '../../components/ui/usage-meter';
import { formatBytes, formatDate, formatNumber } from '../../lib/utils';

/** This period's usage against the plan: documents, formats, image storage. */
export function UsageMeters({ usage }: { usage: TBillingOverview['usage'] }) {
  return (
    <dl className="grid gap-6 border-t pt-6 sm:grid-cols-3">
      <UsageMeter
        label="Documents this month"
        progressLabel="Documents generated this month"
        used={usage.generations.used}
        limit={usage.generations.limit}
        show={formatNumber}
        testId="billing-generations"
        note={`Resets on ${formatDate(usage.periodEnd)}`}
      />
      {usage.formats.limit === null ? (
        <div>
          <dt className="text-sm font-medium">Formats</dt>
          <dd className="mt-2 text-sm tabular-nums" data-testid="billing-formats">
            <span className="font-semibold">{formatNumber(usage.formats.used)}</span>
            <span className="text-muted-foreground"> · unlimited</span>
          </dd>
        </div>
      ) : (
        <UsageMeter
          label="Formats"
          progressLabel="Formats used"
          used={usage.formats.used}
          limit={usage.formats.limit}
          show={formatNumber}
          testId="billing-formats"
          note={usage.formats.used > usage.formats.limit ? 'Formats beyond the limit are read-only.' : undefined}
        />
      )}
      <UsageMeter
        label="Image storage"
        progressLabel="Image storage used"
        used={usage.storage.usedBytes}
        limit={usage.storage.limitBytes}
        show={formatBytes}
        testId="billing-storage"
      />
    </dl>
  );
}
