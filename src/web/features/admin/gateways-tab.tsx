import { CreditCardIcon, InfoIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { type TPaymentGateway } from '../../../contract/admin';
import { EmptyStateCard } from '../../components/layout/empty-state';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { toast, toastApiError } from '../../hooks/use-toast';
import { usePaymentGateways, useUpdateGateway } from './api';
import { GATEWAY_LABELS, gatewayCurrency } from './labels';
import { QueryState, SkeletonList } from '../../components/query-state';
import { GatewayCard } from './gateway-card';
import { CreateGatewayForm, EditGatewayForm } from './gateway-forms';

export function GatewaysTab() {
  const gateways = usePaymentGateways(true);
  const updateGateway = useUpdateGateway();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TPaymentGateway | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const list = gateways.data ?? [];
  const active = list.find((g) => g.isActive);

  function toggle(g: TPaymentGateway, isActive: boolean) {
    setPendingId(g.id);
    updateGateway.mutate(
      { id: g.id, update: { isActive } },
      {
        onSuccess: (updated) => {
          toast({
            title: 'Payment gateway updated successfully',
            description: updated.isActive
              ? `${GATEWAY_LABELS[updated.gatewayName]} is now the active gateway. Prices show in ${gatewayCurrency(updated.gatewayName)}.`
              : `${GATEWAY_LABELS[updated.gatewayName]} is now inactive.`,
          });
        },
        onError: toastApiError('Failed to update payment gateway'),
        onSettled: () => setPendingId(null),
      },
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <Alert variant="info" className="sm:max-w-2xl">
          <InfoIcon aria-hidden />
          <AlertTitle>
            {active
              ? `Prices show in ${gatewayCurrency(active.gatewayName)}: ${GATEWAY_LABELS[active.gatewayName]} is active`
              : 'No active gateway: prices show in USD'}
          </AlertTitle>
          <AlertDescription>
            <p>
              Only one gateway takes payments at a time, and it sets the price currency: INR for Razorpay, USD for Stripe and PayPal. Turning a gateway on turns
              the others off. Register each gateway’s webhook address at the provider, so renewals, failures and refunds reach Formwork.
            </p>
          </AlertDescription>
        </Alert>
        {list.length > 0 && (
          <Button onClick={() => setCreating(true)} className="shrink-0">
            <PlusIcon aria-hidden /> Add gateway
          </Button>
        )}
      </div>

      <QueryState
        query={gateways}
        loading={<SkeletonList count={2} className="grid gap-3 md:grid-cols-2" itemClassName="h-40" />}
        errorText="Could not load payment gateways."
        isEmpty={list.length === 0}
        empty={
          <EmptyStateCard
            icon={CreditCardIcon}
            title="No payment gateways"
            description="Add Razorpay, Stripe or PayPal with your API keys so customers can pay for plans."
            action={
              <Button onClick={() => setCreating(true)}>
                <PlusIcon aria-hidden /> Add gateway
              </Button>
            }
            className="py-14"
          />
        }
      >
        <ul className="grid gap-3 md:grid-cols-2" aria-label="Payment gateways">
          {list.map((g) => (
            <li key={g.id} data-testid="gateway-card">
              <GatewayCard g={g} pending={pendingId === g.id} onToggle={(checked) => toggle(g, checked)} onEdit={() => setEditing(g)} />
            </li>
          ))}
        </ul>
      </QueryState>

      <Dialog open={creating} onOpenChange={setCreating}>
        {creating && <CreateGatewayForm existing={list} onDone={() => setCreating(false)} />}
      </Dialog>
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        {editing && <EditGatewayForm key={editing.id} gateway={editing} onDone={() => setEditing(null)} />}
      </Dialog>
    </div>
  );
}
