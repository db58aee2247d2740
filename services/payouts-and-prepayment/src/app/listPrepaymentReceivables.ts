import { requireClientId } from '@platform/kit';
import type { EligibleReceivable } from '../domain/prepayment';
import type { PayoutsDeps } from './deps';
import { eligible, receiverOf, requireEnabled } from './prepaymentAccess';

export async function listPrepaymentReceivables(
  deps: PayoutsDeps,
  input: { clientId: string; sellerId?: string },
): Promise<{ availableAmount: number; receivableCount: number; receivables: EligibleReceivable[] }> {
  const clientId = requireClientId(input.clientId);
  await requireEnabled(deps, clientId);
  const receiver = await receiverOf(deps, deps.pool, clientId, input.sellerId);
  const receivables = await eligible(deps, deps.pool, clientId, receiver);
  return { availableAmount: receivables.reduce((s, r) => s + r.amount, 0), receivableCount: receivables.length, receivables };
}
