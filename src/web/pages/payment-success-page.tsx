import { useMutation } from '@tanstack/react-query';
import { CheckCircle2Icon, Loader2Icon, LogInIcon, XCircleIcon, type LucideIcon } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { AppShell } from '../components/layout/app-shell';
import { FullPageStatus } from '../components/layout/require-auth';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { useAuth } from '../hooks/use-auth';
import { api } from '../lib/api';
import { authKeys, statsKeys } from '../lib/query-keys';
import { queryClient } from '../lib/query-client';
import { SUPPORT_EMAIL, mailto } from '../lib/site';
import { MarketingLayout } from '../features/marketing/marketing-layout';
import { SELECTED_PLAN_KEYS } from '../features/marketing/pricing-section';

interface PaymentDetails {
  orderId: string;
  paymentId: string;
  signature: string;
  planId: string;
  planName: string;
}

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Reads the checkout result (query string) and the plan chosen before checkout (local storage). */
export function readPaymentDetails(search: string): PaymentDetails | null {
  const q = new URLSearchParams(search);
  const orderId = q.get('razorpay_order_id') ?? '';
  const paymentId = q.get('razorpay_payment_id') ?? '';
  const signature = q.get('razorpay_signature') ?? '';
  const planId = q.get('plan') ?? readStored(SELECTED_PLAN_KEYS.plan) ?? '';
  if (!orderId || !paymentId || !signature || !planId) return null;
  return { orderId, paymentId, signature, planId, planName: readStored(SELECTED_PLAN_KEYS.name) ?? planId.split('_')[0] ?? planId };
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

function supportLink(details: PaymentDetails | null): string {
  const body = details ? `Order: ${details.orderId}\nPayment: ${details.paymentId}\nPlan: ${details.planId}` : undefined;
  return mailto(SUPPORT_EMAIL, 'Payment issue', body);
}

function FailureActions({ details }: { details: PaymentDetails | null }) {
  return (
    <>
      <Button asChild>
        <Link href="/settings?tab=billing">Try Again</Link>
      </Button>
      <Button variant="outline" asChild>
        <a href={supportLink(details)}>Contact Support</a>
      </Button>
    </>
  );
}

function PaymentResult() {
  const search = useSearch();
  const details = readPaymentDetails(search);
  const started = useRef(false);
  const verify = useMutation({
    mutationFn: async (d: PaymentDetails) => {
      await api.post('/api/subscription/verify-payment', {
        razorpay_order_id: d.orderId,
        razorpay_payment_id: d.paymentId,
        razorpay_signature: d.signature,
        planId: d.planId,
      });
    },
    onSuccess: () => {
      for (const key of Object.values(SELECTED_PLAN_KEYS)) {
        try {
          localStorage.removeItem(key);
        } catch {
          // ignore
        }
      }
      void queryClient.invalidateQueries({ queryKey: authKeys.user });
      void queryClient.invalidateQueries({ queryKey: statsKeys.mine });
    },
  });

  useEffect(() => {
    if (details && !started.current) {
      started.current = true;
      verify.mutate(details);
    }
  }, [details, verify]);

  if (!details) {
    return (
      <StatusCard icon={XCircleIcon} tone="destructive" title="Missing payment details" actions={<FailureActions details={null} />}>
        We could not find the payment details for this page. If you were charged, contact support and we will sort it out.
      </StatusCard>
    );
  }
  if (verify.isSuccess) {
    return (
      <StatusCard
        icon={CheckCircle2Icon}
        tone="success"
        title="Subscription Activated!"
        actions={
          <Button asChild>
            <Link href="/">Go to Dashboard</Link>
          </Button>
        }
      >
        Welcome to your {details.planName} plan!
      </StatusCard>
    );
  }
  if (verify.isError) {
    return (
      <StatusCard icon={XCircleIcon} tone="destructive" title="Payment Processing Failed" actions={<FailureActions details={details} />}>
        Please contact support if payment was deducted.
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
