import { errors, requireClientId, withTransaction } from '@platform/kit';
import type { PaymentBatch } from '../domain/batch';
import type { PayoutsDeps } from './deps';
import { dateFilter } from './readFilters';
import { settleClient } from './settleClient';
import { payBatch } from './payBatch';

/**
 * Sandbox: the settlement of `date` for this client, as if today were that date, with the transfers that failed and
 * are due again by then tried again (their durable job would run on that day). The batches settled, then those
 * tried again.
 */
export async function advance(deps: PayoutsDeps, input: { clientId: string; date: string }): Promise<PaymentBatch[]> {
  const clientId = requireClientId(input.clientId);
  const date = dateFilter(input.date, 'date');
  if (!date) throw errors.validation('date is required', [{ field: 'date', message: 'is required' }]);
  const settled = await settleClient(deps, clientId, date);
  const due = await withTransaction(deps.pool, async (tx) => (await deps.batchStore.waitingBatches(tx, clientId, { retryBy: date })).filter((b) => b.status === 'failed'));
  const retried: PaymentBatch[] = [];
  for (const batch of due) retried.push(await payBatch(deps, clientId, batch.id));
  return [...settled, ...retried];
}
