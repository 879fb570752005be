import { AlertTriangleIcon, CalendarClockIcon } from 'lucide-react';
import { Link } from 'wouter';
import { formatMinorUnits } from '../../../contract/plan-catalogue';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { useBillingOverview } from '../../hooks/use-billing-overview';
import { formatDate } from '../../lib/utils';

/**
 * On the dashboard: the renewal reminder for plans paid by hand (from a week before the period
 * ends), and the warning while an unpaid plan is in its grace period. Nothing otherwise.
 */
export function RenewalNotice() {
  const { data } = useBillingOverview();
  const sub = data?.subscription;
  if (!sub || sub.cancelAtPeriodEnd || (!sub.payAgain && sub.status !== 'past_due')) return null;
  const pastDue = sub.status === 'past_due';
  return (
    <Alert variant={pastDue ? 'destructive' : 'info'} data-testid="renewal-notice">
      {pastDue ? <AlertTriangleIcon aria-hidden /> : <CalendarClockIcon aria-hidden />}
      <AlertTitle>{pastDue ? 'Your plan renewal is overdue' : `Your plan renews on ${formatDate(sub.periodEnd)}`}</AlertTitle>
      <AlertDescription>
        <p>
          {pastDue
            ? `Pay by ${formatDate(sub.graceEndsAt ?? sub.periodEnd)} to keep your plan; after that your account returns to Free (nothing is deleted).`
            : `This payment method does not renew by itself: pay ${sub.payAgain ? formatMinorUnits(sub.payAgain.amount, sub.payAgain.currency) : ''} to continue without a break.`}
        </p>
        <Button size="sm" className="mt-1" variant={pastDue ? 'destructive' : 'default'} asChild>
          <Link href="/settings?tab=billing">Renew now</Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
