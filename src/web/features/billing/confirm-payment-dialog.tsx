import { CreditCardIcon, ExternalLinkIcon, Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import type { TCheckoutQuote } from '../../../contract/billing';
import type { TCurrency } from '../../../contract/plans';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { formatDate } from '../../lib/utils';

/** Money to the cent, as a receipt shows it: $868.00, ₹2,688.00. */
export function exactMoney(amountMinor: number, currency: TCurrency): string {
  return new Intl.NumberFormat(currency === 'INR' ? 'en-IN' : 'en-US', { style: 'currency', currency, minimumFractionDigits: 2 }).format(amountMinor / 100);
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
};
const GATEWAY_NAMES = { razorpay: 'Razorpay', stripe: 'Stripe', paypal: 'PayPal' } as const;

/** "Mastercard ending in 4444", or the card Stripe holds when it names none. */
function cardWords(paidWith: Extract<TCheckoutQuote['paidWith'], { type: 'card' }>): string {
  if (!paidWith.last4) return 'The card on file with Stripe';
  const brand = paidWith.brand ? (BRANDS[paidWith.brand] ?? paidWith.brand[0]!.toUpperCase() + paidWith.brand.slice(1)) : 'Card';
  return `${brand} ending in ${paidWith.last4}`;
}

function titleOf(quote: TCheckoutQuote): string {
  const plan = `${quote.planName} (${quote.cycle})`;
  if (quote.kind === 'renewal') return `Renew ${plan}`;
  if (quote.kind === 'upgrade') return `Upgrade to ${quote.planName}`;
  return quote.chargesNow ? `Switch to ${plan}` : `Subscribe to ${plan}`;
}

/**
 * What a plan costs, when and how it is paid, shown before any money moves: the one place a
 * payment is confirmed. Its button is the only way to create-order, and it says what it does —
 * "Pay $868.00 now" for a saved card, "Continue to Razorpay" for a gateway's page.
 */
export function ConfirmPaymentDialog({
  quote,
  paying,
  onConfirm,
  onDismiss,
}: {
  quote: TCheckoutQuote | null;
  paying: boolean;
  onConfirm: () => void;
  onDismiss: () => void;
}) {
  // The last quote stays drawn while the dialog fades out.
  const [shown, setShown] = useState(quote);
  if (quote && quote !== shown) setShown(quote);
  const q = quote ?? shown;
  const total = q ? exactMoney(q.amount, q.currency) : '';
  const gatewayName = q ? GATEWAY_NAMES[q.gateway] : '';
  const action = q?.chargesNow ? `Pay ${total} now` : `Continue to ${gatewayName}`;
  const pendingAction = q?.chargesNow ? 'Charging your card...' : `Opening ${gatewayName}...`;

  return (
    <Dialog open={quote !== null} onOpenChange={(open) => !open && !paying && onDismiss()}>
      <DialogContent
        className="gap-5 sm:max-w-md"
        showCloseButton={!paying}
        onInteractOutside={(event) => paying && event.preventDefault()}
        onEscapeKeyDown={(event) => paying && event.preventDefault()}
        data-testid="confirm-payment"
      >
        {q && (
          <>
            <DialogHeader>
              <DialogTitle>{titleOf(q)}</DialogTitle>
              <DialogDescription>
                {q.chargesNow
                  ? `${cardWords(q.paidWith as Extract<TCheckoutQuote['paidWith'], { type: 'card' }>)} is charged ${total} as soon as you confirm.`
                  : `You pay ${total} on ${gatewayName}'s secure page next. Nothing is charged until you complete it there.`}
              </DialogDescription>
            </DialogHeader>

            <div className="rounded-lg border bg-muted/30">
              <ul className="divide-y text-sm" aria-label="What you pay for">
                {q.lines.map((line, index) => (
                  <li key={index} className="flex items-start justify-between gap-4 px-4 py-2.5">
                    <span className="min-w-0 break-words text-muted-foreground">{line.description}</span>
                    <span className="shrink-0 tabular-nums">
                      {line.amount < 0 ? `−${exactMoney(-line.amount, q.currency)}` : exactMoney(line.amount, q.currency)}
                    </span>
                  </li>
                ))}
              </ul>
              <div className="flex items-baseline justify-between gap-4 border-t px-4 py-3">
                <span className="font-medium">{q.chargesNow ? 'Charged now' : 'To pay'}</span>
                <span className="text-lg font-semibold tabular-nums" data-testid="confirm-payment-total">
                  {total}
                </span>
              </div>
            </div>

            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Date</dt>
              <dd className="text-right font-medium">Today, {formatDate(q.chargeAt)}</dd>
              <dt className="text-muted-foreground">Paid with</dt>
              <dd className="flex items-center justify-end gap-1.5 text-right font-medium" data-testid="confirm-payment-method">
                {q.paidWith.type === 'card' ? (
                  <>
                    <CreditCardIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                    {cardWords(q.paidWith)}
                  </>
                ) : (
                  q.paidWith.label
                )}
              </dd>
              <dt className="text-muted-foreground">Covers</dt>
              <dd className="text-right font-medium">
                {formatDate(q.period.start)} – {formatDate(q.period.end)}
              </dd>
              <dt className="text-muted-foreground">Renewal</dt>
              <dd className="text-right font-medium">
                {q.gateway === 'stripe' ? `Automatic, on ${formatDate(q.period.end)}` : `Pay again by ${formatDate(q.period.end)}`}
              </dd>
            </dl>

            <DialogFooter>
              <Button variant="outline" onClick={onDismiss} disabled={paying}>
                Cancel
              </Button>
              <Button onClick={onConfirm} disabled={paying}>
                {paying ? (
                  <Loader2Icon className="animate-spin" aria-hidden />
                ) : q.chargesNow ? (
                  <CreditCardIcon aria-hidden />
                ) : (
                  <ExternalLinkIcon aria-hidden />
                )}
                {paying ? pendingAction : action}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
