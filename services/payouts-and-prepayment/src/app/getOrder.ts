import { errors, isUuid, requireClientId } from '@platform/kit';
import type { PaymentOrder } from '../domain/batch';
import type { PayoutsDeps } from './deps';

export async function getOrder(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<PaymentOrder> {
  const clientId = requireClientId(input.clientId);
  const order = isUuid(input.id) ? await deps.batchStore.findOrder(deps.pool, clientId, input.id.toLowerCase()) : null;
  if (!order) throw errors.notFound('Payment order', input.id);
  return order;
}
