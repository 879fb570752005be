import { useMutation } from '@tanstack/react-query';
import { CheckCircle2Icon, Loader2Icon, LogInIcon, XCircleIcon, type LucideIcon } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { TVerifyPaymentBody } from '../../contract/billing';
import { Link, useSearch } from 'wouter';
import { AppShell } from '../components/layout/app-shell';
import { FullPageStatus } from '../components/layout/require-auth';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { useAuth } from '../hooks/use-auth';
import { readApiError } from '../lib/api';
import { toast } from '../hooks/use-toast';
import { forgetPlanChoice, storedPlanChoice } from '../lib/plans';
import { useContactEmails } from '../hooks/use-app-config';
import { mailto } from '../lib/site';
import { formatDate } from '../lib/utils';
import { MarketingLayout } from '../features/marketing/marketing-layout';
import { billingApi } from '../features/billing/api';
import { useRefreshBilling } from '../features/billing/use-checkout';
import { hasKeptDraft } from '../features/builder/imported-draft';
import { IMPORTED_DRAFT_HREF } from '../features/builder/imported-draft-store';

/** What the gateway handed back on the way here, read from the address. */
type TPaymentReturn =
  { kind: 'verify'; body: TVerifyPaymentBody; reference: string } | { kind: 'failed'; reason: string; planKey: string } | { kind: 'missing' };

export function readPaymentReturn(search: string): TPaymentReturn {
  const q = new URLSearchParams(search);
  const planKey = q.get('plan') ?? storedPlanChoice() ?? '';
  if (q.get('status') === 'failed') return { kind: 'failed', reason: q.get('reason') ?? '', planKey };
  const orderId = q.get('razorpay_order_id');
  const paymentId = q.get('razorpay_payment_id');
  const signature = q.get('razorpay_signature');
  if (orderId || paymentId || signature) {
    if (!orderId || !paymentId || !signature || !planKey) return { kind: 'missing' };
    return {
      kind: 'verify',
      body: { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature, planId: planKey },
      reference: `Order: ${orderId}\nPayment: ${paymentId}`,
    };
  }
  const sessionId = q.get('session_id');
  if (sessionId) return { kind: 'verify', body: { session_id: sessionId }, reference: `Checkout session: ${sessionId}` };
  const token = q.get('token');
  if (q.get('gateway') === 'paypal' && token) return { kind: 'verify', body: { paypal_order_id: token }, reference: `PayPal order: ${token}` };
  return { kind: 'missing' };
}

function StatusCard({
  icon: Icon,
  tone,
  title,
  children,
  actions,
  spin = false,
}: {
  spin?: boolean;
  icon: LucideIcon;
  tone: 'primary' | 'success' | 'destructive';
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const toneClass = {
    primary: 'bg-primary-soft text-primary',
    success: 'bg-success-soft text-success',
    destructive: 'bg-destructive/10 text-destructive',
  }[tone];
  return (
    <Card className="mx-auto w-full max-w-lg p-8 text-center sm:p-10" role="status" aria-live="polite">
      <span className={`mx-auto flex size-14 items-center justify-center rounded-full ${toneClass}`}>
        <Icon className={`size-7 ${spin ? 'animate-spin' : ''}`} aria-hidden />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight">{title}</h1>
      <div className="mt-3 text-muted-foreground">{children}</div>
      {actions && <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{actions}</div>}
    </Card>
  );
}

/** Contact Support only where the installation has a support address to write to. */
function FailureActions({ reference }: { reference?: string }) {
  const { supportEmail } = useContactEmails();
  return (
    <>
      <Button asChild>
        <Link href="/settings?tab=billing">Try Again</Link>
      </Button>
      {supportEmail && (
        <Button variant="outline" asChild>
          <a href={mailto(supportEmail, 'Payment issue', reference)}>Contact Support</a>
        </Button>
      )}
    </>
  );
}

function PaymentResult() {
  const search = useSearch();
  const [paymentReturn] = useState(() => readPaymentReturn(search));
  const refresh = useRefreshBilling();
  const started = useRef(false);
  const verify = useMutation({
    mutationFn: (body: TVerifyPaymentBody) => billingApi.verifyPayment(body),
    onSuccess: async (result) => {
      forgetPlanChoice();
      await refresh();
      toast({ title: 'Subscription Activated!', description: `Welcome to your ${result.planName} plan!` });
    },
  });

  useEffect(() => {
    if (paymentReturn.kind === 'verify' && !started.current) {
      started.current = true;
      verify.mutate(paymentReturn.body);
    }
  }, [paymentReturn, verify]);

  if (paymentReturn.kind === 'missing') {
    return (
      <StatusCard icon={XCircleIcon} tone="destructive" title="Missing payment details" actions={<FailureActions />}>
        We could not find the payment details for this page. If you were charged, contact support and we will sort it out.
      </StatusCard>
    );
  }
  if (paymentReturn.kind === 'failed' || verify.isError) {
    const reason = paymentReturn.kind === 'failed' ? paymentReturn.reason : readApiError(verify.error, '').message;
    return (
      <StatusCard
        icon={XCircleIcon}
        tone="destructive"
        title="Payment Processing Failed"
        actions={<FailureActions reference={paymentReturn.kind === 'verify' ? paymentReturn.reference : undefined} />}
      >
        <p>Please contact support if payment was deducted.</p>
        {reason && (
          <p className="mt-2 text-sm" data-testid="payment-failure-reason">
            {reason}
          </p>
        )}
      </StatusCard>
    );
  }
  if (verify.isSuccess) {
    const keptDraft = hasKeptDraft();
    return (
      <StatusCard
        icon={CheckCircle2Icon}
        tone="success"
        title="Subscription Activated!"
        actions={
          <>
            <Button asChild>
              <Link href={keptDraft ? IMPORTED_DRAFT_HREF : '/'}>{keptDraft ? 'Back to your format' : 'Go to Dashboard'}</Link>
            </Button>
            <Button variant="outline" asChild>
              <Link href="/settings?tab=billing">Billing and invoices</Link>
            </Button>
          </>
        }
      >
        <p>Welcome to your {verify.data.planName} plan!</p>
        <p className="mt-2 text-sm">Paid until {formatDate(verify.data.periodEnd)}. Your invoice is in Settings → Billing.</p>
      </StatusCard>
    );
  }
  return (
    <StatusCard icon={Loader2Icon} tone="primary" spin title="Processing your payment...">
      Confirming your payment with the provider. This takes a few seconds; please keep this page open.
    </StatusCard>
  );
}

export function PaymentSuccessPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullPageStatus label="Loading..." />;
  if (!user) {
    return (
      <MarketingLayout>
        <div className="container-page py-16 sm:py-24">
          <StatusCard
            icon={LogInIcon}
            tone="primary"
            title="Sign in to finish"
            actions={
              <Button asChild>
                <a href="/api/login">Sign In</a>
              </Button>
            }
          >
            Sign in to the account you are subscribing with, and we will confirm your payment.
          </StatusCard>
        </div>
      </MarketingLayout>
    );
  }
  return (
    <AppShell user={user}>
      <div className="py-6 sm:py-12">
        <PaymentResult />
      </div>
    </AppShell>
  );
}
