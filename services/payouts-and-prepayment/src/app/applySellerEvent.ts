import { scheduleJob, type Queryable } from '@platform/kit';
import { JOBS, type PayoutsDeps } from './deps';

/** The part of a `sellers.seller.*` event's data (the public seller) this service keeps. */
export interface SellerEventData {
  id: string;
  status: string;
  planId?: string | null;
}

/**
 * Keeps what the sellers service says of a seller: its plan and status. A blocked seller's batches wait; when the
 * seller is no longer blocked, each waiting batch gets a job that pays it, in this transaction.
 */
export async function applySellerEvent(deps: PayoutsDeps, tx: Queryable, clientId: string, data: SellerEventData, occurredAt: Date): Promise<void> {
  const sellerId = data.id.toLowerCase();
  await deps.sellerStore.upsert(tx, clientId, { id: sellerId, planId: data.planId || null, status: data.status }, occurredAt);
  if (data.status === 'blocked' || data.status === 'inactive') return;
  const waiting = await deps.batchStore.waitingBatches(tx, clientId, { receiver: sellerId });
  for (const batch of waiting.filter((b) => b.status === 'pending')) {
    await scheduleJob(tx, { kind: JOBS.payBatch, runAt: deps.clock.now(), payload: { clientId, batchId: batch.id }, dedupeKey: `${batch.id}:release` });
  }
}
