import type { z } from 'zod';
import type { TPaymentGateway, ZPaymentGatewayInput, ZPaymentGatewayUpdate } from '../../../contract/admin.ts';
import { notFound } from '../../http/app-error.ts';
import type { TGatewayRow } from './admin.repository.ts';
import type { TAdminContext } from './admin-context.ts';
import { pick } from '../api-fields.ts';

function toGateway(row: TGatewayRow): TPaymentGateway {
  return {
    ...pick(row, ['id', 'gatewayName', 'isActive', 'keyId', 'configuration']),
    hasKeySecret: Boolean(row.keySecretEnc),
    hasWebhookSecret: Boolean(row.webhookSecretEnc),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The payment gateways, their secrets shown only as set or not. */
export async function listGateways({ deps }: TAdminContext): Promise<TPaymentGateway[]> {
  return (await deps.admin.listGateways()).map(toGateway);
}

export async function createGateway(
  { deps, audit, seal }: TAdminContext,
  actorId: string,
  input: z.output<typeof ZPaymentGatewayInput>,
): Promise<TPaymentGateway> {
  const row = await deps.admin.saveGateway(undefined, {
    gatewayName: input.gatewayName,
    isActive: input.isActive,
    keyId: input.keyId,
    keySecretEnc: seal(input.keySecret),
    webhookSecretEnc: seal(input.webhookSecret),
    configuration: input.configuration,
  });
  deps.gatewaysChanged?.();
  await audit(actorId, 'gateway.create', 'gateway', row!.id, {
    gatewayName: input.gatewayName,
    isActive: input.isActive,
    keyId: input.keyId,
    keySecret: input.keySecret ? 'set' : 'not set',
    webhookSecret: input.webhookSecret ? 'set' : 'not set',
    configuration: input.configuration,
  });
  return toGateway(row!);
}

export async function updateGateway(
  { deps, audit, seal }: TAdminContext,
  actorId: string,
  id: string,
  changes: z.output<typeof ZPaymentGatewayUpdate>,
): Promise<TPaymentGateway> {
  const { keySecret, webhookSecret, ...rest } = changes;
  const row = await deps.admin.saveGateway(id, {
    ...rest,
    ...(keySecret ? { keySecretEnc: seal(keySecret) } : {}),
    ...(webhookSecret ? { webhookSecretEnc: seal(webhookSecret) } : {}),
  });
  if (!row) throw notFound('Payment gateway');
  deps.gatewaysChanged?.();
  await audit(actorId, 'gateway.update', 'gateway', id, {
    gatewayName: row.gatewayName,
    ...rest,
    ...(keySecret ? { keySecret: 'replaced' } : {}),
    ...(webhookSecret ? { webhookSecret: 'replaced' } : {}),
  });
  return toGateway(row);
}
