import { ZDelivery, type TDelivery } from '../../../../contract/delivery.ts';
import type { TestClient } from '../../../test/test-app.ts';

/** Polls a delivery until it is sent or failed. */
export async function settledDelivery(client: TestClient, id: string): Promise<TDelivery> {
  for (let i = 0; i < 400; i++) {
    const delivery = ZDelivery.parse((await client.get(`/api/deliveries/${id}`)).json());
    if (delivery.status === 'sent' || delivery.status === 'failed') return delivery;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`delivery ${id} did not settle`);
}
