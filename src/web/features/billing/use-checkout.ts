import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import { toast } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { forgetPlanChoice } from '../../lib/plans';
import { authKeys, billingKeys, formatKeys, statsKeys } from '../../lib/query-keys';
import { runCheckout } from './checkout';

/** After the plan changes: everything that shows the plan, its limits or its usage. */
export function useRefreshBilling() {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([billingKeys.all, authKeys.user, statsKeys.mine, formatKeys.all].map((queryKey) => client.invalidateQueries({ queryKey })));
  }, [client]);
}

/**
 * Starts a checkout for a plan key and tracks which one is in progress (its button shows
 * Processing...). Failures are toasted in the product's words: 'Subscription Failed', with the
 * server's reason when it gave one.
 */
export function useCheckout() {
  const [, navigate] = useLocation();
  const refresh = useRefreshBilling();
  const [paying, setPaying] = useState<string | null>(null);

  const start = useCallback(
    async (planKey: string) => {
      setPaying(planKey);
      try {
        const outcome = await runCheckout(planKey, navigate);
        if (outcome.kind === 'left') return;
        setPaying(null);
        if (outcome.kind === 'done') {
          forgetPlanChoice();
          await refresh();
          toast({ title: 'Subscription Activated!', description: `Welcome to your ${outcome.checkout.planId[0]!.toUpperCase()}${outcome.checkout.planId.slice(1)} plan!` });
        }
      } catch (error) {
        setPaying(null);
        toast({
          variant: 'destructive',
          title: 'Subscription Failed',
          description: readApiError(error, error instanceof Error && !('status' in error) ? error.message : 'Unable to process subscription. Please try again.').message,
        });
      }
    },
    [navigate, refresh],
  );
  return { start, paying, refresh };
}
