import { SparklesIcon } from 'lucide-react';
import { Link } from 'wouter';
import { ApiError } from '../../lib/api';
import { Alert, AlertDescription, AlertTitle } from '../ui/alert';
import { Button } from '../ui/button';
import { ToastAction, type ToastActionElement } from '../ui/toast';

/** Where every "upgrade" leads: the plans in Settings → Billing. */
export const UPGRADE_HREF = '/settings?tab=billing';

const LIMIT_CODES = new Set(['plan_limit', 'quota_exceeded', 'storage_limit']);

/** True for the refusals a bigger plan would have allowed. */
export function isPlanLimitError(error: unknown): boolean {
  return error instanceof ApiError && error.code !== null && LIMIT_CODES.has(error.code);
}

/**
 * An Upgrade button for a toast about a plan's limit (second format, monthly documents, image
 * storage), or undefined for any other error. `go` navigates, so a screen with unsaved work can
 * let its guard through first.
 */
export function upgradeActionFor(error: unknown, go?: (href: string) => void): ToastActionElement | undefined {
  if (!isPlanLimitError(error)) return undefined;
  if (go) {
    return (
      <ToastAction altText="Upgrade your plan" onClick={() => go(UPGRADE_HREF)}>
        Upgrade
      </ToastAction>
    );
  }
  return (
    <ToastAction altText="Upgrade your plan" asChild>
      <Link href={UPGRADE_HREF}>Upgrade</Link>
    </ToastAction>
  );
}

/** Said before the user builds something the plan will not keep: "1 of 1 formats used". */
export function FormatAllowanceNotice({ used, limit, planName, onUpgrade }: { used: number; limit: number; planName: string; onUpgrade?: () => void }) {
  return (
    <Alert variant="info" data-testid="format-allowance">
      <SparklesIcon aria-hidden />
      <AlertTitle>
        {used.toLocaleString('en-US')} of {limit.toLocaleString('en-US')} {limit === 1 ? 'format' : 'formats'} used
      </AlertTitle>
      <AlertDescription>
        <p>
          The {planName} plan includes {limit} {limit === 1 ? 'format' : 'formats'}. You can build this one and preview it; to save it, upgrade or delete a
          format you no longer need.
        </p>
        {onUpgrade ? (
          <Button size="sm" className="mt-1" onClick={onUpgrade}>
            See plans
          </Button>
        ) : (
          <Button size="sm" className="mt-1" asChild>
            <Link href={UPGRADE_HREF}>See plans</Link>
          </Button>
        )}
      </AlertDescription>
    </Alert>
  );
}
