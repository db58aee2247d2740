import { errors, isUuid, requireClientId } from '@platform/kit';
import type { PaymentBatch } from '../domain/batch';
import type { PayoutsDeps } from './deps';

export async function getBatch(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<PaymentBatch> {
  const clientId = requireClientId(input.clientId);
  const batch = isUuid(input.id) ? await deps.batchStore.findBatch(deps.pool, clientId, input.id.toLowerCase()) : null;
  if (!batch) throw errors.notFound('Payment batch', input.id);
  return batch;
}
