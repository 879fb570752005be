import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { TCheckoutQuote } from '../../../contract/billing';
import { toast } from '../../hooks/use-toast';
import { readApiError } from '../../lib/api';
import { forgetPlanChoice } from '../../lib/plans';
import { authKeys, billingKeys, formatKeys, statsKeys } from '../../lib/query-keys';
import { billingApi } from './api';
import { runCheckout } from './checkout';

/** After the plan changes: everything that shows the plan, its limits or its usage. */
export function useRefreshBilling() {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([billingKeys.all, authKeys.user, statsKeys.mine, formatKeys.all].map((queryKey) => client.invalidateQueries({ queryKey })));
  }, [client]);
}

/** Failures in the product's words: 'Subscription Failed', with the server's reason when it gave one. */
function toastFailure(error: unknown) {
  toast({
    variant: 'destructive',
    title: 'Subscription Failed',
    description: readApiError(error, error instanceof Error && !('status' in error) ? error.message : 'Unable to process subscription. Please try again.')
      .message,
  });
}

/**
 * Paying for a plan in two steps, so no money moves without the payer's click: `choose` asks the
 * server what the plan costs (the quote, which charges nothing) and shows it; only `confirm`, the
 * click on the dialog's pay button, places the order. `busy` is the plan key whose button shows
 * Processing... (its price is loading, or its payment window is open).
 */
export function useCheckout() {
  const [, navigate] = useLocation();
  const refresh = useRefreshBilling();
  const [busy, setBusy] = useState<string | null>(null);
  /** The price on screen, waiting for the user's decision. */
  const [quote, setQuote] = useState<TCheckoutQuote | null>(null);
  /** The confirmed order is being placed (the dialog's button shows it). */
  const [paying, setPaying] = useState(false);
  // A double click lands before the button is drawn disabled: one confirmation, one order.
  const confirming = useRef(false);

  const choose = useCallback(async (planKey: string) => {
    setBusy(planKey);
    try {
      setQuote(await billingApi.quote(planKey));
    } catch (error) {
      toastFailure(error);
    } finally {
      setBusy(null);
    }
  }, []);

  const confirm = useCallback(async () => {
    if (!quote || confirming.current) return;
    confirming.current = true;
    setPaying(true);
    setBusy(quote.planKey);
    try {
      // The dialog gives way to the gateway's window as soon as the order exists.
      const outcome = await runCheckout(quote, navigate, () => {
        if (quote.paidWith.type === 'page' && quote.gateway === 'razorpay') setQuote(null);
      });
      if (outcome.kind === 'left') return;
      confirming.current = false;
      setQuote(null);
      setPaying(false);
      setBusy(null);
      if (outcome.kind === 'done') {
        forgetPlanChoice();
        await refresh();
        toast({ title: 'Subscription Activated!', description: `Welcome to your ${quote.planName} plan!` });
      }
    } catch (error) {
      confirming.current = false;
      setQuote(null);
      setPaying(false);
      setBusy(null);
      toastFailure(error);
    }
  }, [quote, navigate, refresh]);

  const dismiss = useCallback(() => {
    if (!paying) setQuote(null);
  }, [paying]);

  return { choose, confirm, dismiss, quote, paying, busy, refresh };
}
