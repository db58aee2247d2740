import type { payments } from '@platform/contracts';
import { merchantRequest, providerInput, type RunningPayments } from './payments';

/** A merchant with two payment providers (priorities 1 and 2) and an antifraud provider. */
export async function merchantForFlows(running: RunningPayments, clientId: string): Promise<{ merchant: payments.Merchant; a: string; b: string; antifraud: string }> {
  const merchant = await running.client.createMerchant(
    merchantRequest(clientId, {
      providers: [
        providerInput({ name: 'a', priority: 1 }),
        providerInput({ name: 'b', priority: 2, credentials: { type: 'SUBACQUIRER' } }),
        providerInput({ name: 'af', priority: 3, credentials: { type: 'SANDBOX_ANTIFRAUD' } }),
      ],
    }),
  );
  const byName = (name: string) => merchant.providers.find((p) => p.name === name)!.id;
  return { merchant, a: byName('a'), b: byName('b'), antifraud: byName('af') };
}

export function flowRequest(clientId: string, merchantId: string, overrides: Partial<payments.CreateFlowRequest> = {}): payments.CreateFlowRequest {
  return { clientId, merchantId, name: 'flow', paymentMethod: 'credit', rules: [], defaultRoute: [], ...overrides };
}
