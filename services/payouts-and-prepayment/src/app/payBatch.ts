import { scheduleJob, withTransaction, type Queryable } from '@platform/kit';
import { brasiliaInstant } from '../domain/calendar';
import { availableAccount, payoutPosting } from '../domain/ledger';
import type { PaymentBatch } from '../domain/batch';
import { recordBatchEvent, BATCH_EVENTS } from '../events/payoutEvents';
import { JOBS, type PayoutsDeps } from './deps';

/** The hour (Brasília) a failed transfer is tried again, the next business day. */
const RETRY_HOUR = 6;

async function receiverBlocked(deps: PayoutsDeps, db: Queryable, clientId: string, receiver: string | null): Promise<boolean> {
  if (receiver === null) return false;
  const seller = await deps.sellerStore.find(db, clientId, receiver);
  return seller?.status === 'blocked';
}

/**
 * Pays a waiting batch through the payout adapter, unless its receiver is blocked (it waits, `pending`, until the
 * seller is active again). A failed transfer is `failed` and tried again the next business day by a durable job.
 */
export async function payBatch(deps: PayoutsDeps, clientId: string, batchId: string): Promise<PaymentBatch> {
  const batch = await withTransaction(deps.pool, (tx) => deps.batchStore.findBatch(tx, clientId, batchId));
  if (!batch || batch.status === 'paid' || batch.status === 'offset') return batch!;
  if (await receiverBlocked(deps, deps.pool, clientId, batch.receiver)) return batch;
  // A prepayment's batch is paid once the settlement of its payment date moved its receivables to available.
  if (await deps.ledgerStore.batchAwaitsSettlement(deps.pool, clientId, batchId)) return batch;
  // The transfer is asked with no transaction open; its outcome is then written under the batch's row lock.
  const outcome = await deps.payouts.transfer(batch);
  const result = await withTransaction(deps.pool, async (tx) => {
    const current = await deps.batchStore.findBatch(tx, clientId, batchId, { forUpdate: true });
    if (!current || current.status === 'paid' || current.status === 'offset') return current!;
    const now = deps.clock.now();
    const next: PaymentBatch = { ...current, attempts: current.attempts + 1, updatedAt: now };
    if (outcome === 'paid') {
      await deps.ledgerStore.post(tx, clientId, payoutPosting(batchId, current.receiver, current.amount), now);
      next.status = 'paid';
      next.finalBalance = await deps.ledgerStore.accountBalance(tx, clientId, availableAccount(current.receiver));
      await deps.batchStore.updateBatch(tx, next);
      await recordBatchEvent(tx, BATCH_EVENTS.paid, next, now);
    } else {
      next.status = 'failed';
      next.paymentDate = deps.calendar.nextAfter(current.paymentDate);
      await deps.batchStore.updateBatch(tx, next);
      await scheduleJob(tx, {
        kind: JOBS.payBatch,
        runAt: brasiliaInstant(next.paymentDate, RETRY_HOUR, 0),
        payload: { clientId, batchId },
        dedupeKey: `${batchId}:${next.attempts}`,
      });
      await recordBatchEvent(tx, BATCH_EVENTS.failed, next, now);
    }
    return next;
  });
  deps.outbox?.kick();
  return result;
}
