import { requireClientId } from '@platform/kit';
import type { Prepayment } from '../domain/prepayment';
import type { PayoutsDeps } from './deps';
import { requireEnabled, loadPrepayment } from './prepaymentAccess';

export async function getPrepayment(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<Prepayment> {
  const clientId = requireClientId(input.clientId);
  await requireEnabled(deps, clientId);
  const found = await loadPrepayment(deps, deps.pool, clientId, input.id);
  // A simulation past its time reads as expired.
  return found.status === 'pending' && deps.clock.now().getTime() >= found.expiresAt.getTime() ? { ...found, status: 'expired' } : found;
}
