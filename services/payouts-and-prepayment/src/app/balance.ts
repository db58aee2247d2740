import { requireClientId } from '@platform/kit';
import type { PayoutsDeps } from './deps';
import { sellerFilter } from './readFilters';

export async function balance(deps: PayoutsDeps, input: { clientId: string; sellerId?: string }): Promise<{ available: number; receivable: number }> {
  const clientId = requireClientId(input.clientId);
  return deps.ledgerStore.balance(deps.pool, clientId, sellerFilter(input.sellerId) ?? null);
}
