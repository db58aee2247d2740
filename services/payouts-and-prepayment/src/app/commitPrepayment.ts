import { randomUUID } from 'node:crypto';
import { errors, requireClientId, withTransaction, type Queryable } from '@platform/kit';
import { availableAccount, prepaymentPosting, schedulePosting } from '../domain/ledger';
import type { Prepayment } from '../domain/prepayment';
import type { PaymentBatch, PaymentOrder } from '../domain/batch';
import { BATCH_EVENTS, PREPAYMENT_EVENTS, recordBatchEvent, recordPrepaymentEvent } from '../events/payoutEvents';
import type { PayoutsDeps } from './deps';
import { receiverOf, requireEnabled, loadPrepayment } from './prepaymentAccess';

/**
 * The pending batch of a committed prepayment, on its payment date: one order per receivable, its net after the
 * prepayment fee; the order's fee is the plan's fee still kept on it plus the prepayment fee.
 */
async function scheduleBatch(deps: PayoutsDeps, tx: Queryable, p: Prepayment, batchId: string, open: Map<string, { fee: number }>, now: Date): Promise<void> {
  const receivables = new Map((await deps.ledgerStore.receivablesByIds(tx, p.clientId, p.items.map((i) => i.receivableId))).map((r) => [r.id, r]));
  const orders: PaymentOrder[] = p.items.map((item) => {
    const r = receivables.get(item.receivableId)!;
    const planFee = open.get(item.receivableId)?.fee ?? 0;
    return {
      id: randomUUID(),
      clientId: p.clientId,
      batchId,
      chargeId: r.chargeId,
      receiver: p.receiver,
      receivableId: r.id,
      amount: item.net,
      grossAmount: item.amount + planFee,
      totalFeeAmount: planFee + item.fee,
      installment: r.installment,
      totalInstallments: r.totalInstallments,
      paymentMethod: r.paymentType,
      type: 'authorization',
      paymentScheduledAt: p.paymentDate,
      createdAt: now,
    };
  });
  const batch: PaymentBatch = {
    id: batchId,
    clientId: p.clientId,
    receiver: p.receiver,
    paymentDate: p.paymentDate,
    status: p.netAmount > 0 ? 'pending' : 'offset',
    paymentMethod: deps.payouts.method,
    amount: p.netAmount,
    feeAmount: orders.reduce((s, o) => s + o.totalFeeAmount, 0),
    refundAmount: 0,
    finalBalance: await deps.ledgerStore.accountBalance(tx, p.clientId, availableAccount(p.receiver)),
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  await deps.batchStore.insertBatch(tx, batch);
  await deps.batchStore.insertOrders(tx, orders);
  await recordBatchEvent(tx, BATCH_EVENTS.created, batch, now);
}

/**
 * Commits a simulation before it expires: its receivables move to the payment date in one statement that takes only
 * those still free (two commits can never take the same receivable; the second answers 422 `receivables_unavailable`),
 * the fee is posted, and what they still pay leaves the receiver's future receivables for a `pending` payment batch
 * of the payment date, listed at once (`payment_batch.created`); the settlement of that date pays that batch.
 * Committing again answers the committed prepayment.
 */
export async function commit(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<Prepayment> {
  const clientId = requireClientId(input.clientId);
  await requireEnabled(deps, clientId);
  const now = deps.clock.now();
  const outcome = await withTransaction(deps.pool, async (tx): Promise<Prepayment | 'expired'> => {
    const p = await loadPrepayment(deps, tx, clientId, input.id, true);
    if (p.status === 'committed') return p;
    if (p.status === 'expired' || now.getTime() >= p.expiresAt.getTime()) {
      if (p.status !== 'expired') await deps.prepaymentStore.setStatus(tx, clientId, p.id, 'expired', null);
      return 'expired';
    }
    if (p.receiver !== null) await receiverOf(deps, tx, clientId, p.receiver);
    const ids = p.items.map((i) => i.receivableId);
    const open = await deps.ledgerStore.openAmounts(tx, clientId, ids);
    // A refund since the simulation changed what a receivable pays: the simulation no longer holds.
    const changed = p.items.some((i) => (open.get(i.receivableId)?.net ?? 0) !== i.amount);
    const batchId = randomUUID();
    const taken = changed ? 0 : await deps.ledgerStore.takeForPrepayment(tx, clientId, ids, p.id, p.paymentDate, batchId);
    if (taken !== ids.length) {
      throw errors.businessRule('receivables_unavailable', 'Some receivables of this simulation were prepaid or changed since: simulate again');
    }
    const receiver = p.receiver;
    await deps.ledgerStore.post(tx, clientId, prepaymentPosting(p.id, p.items.map((i) => ({ receivableId: i.receivableId, receiver, fee: i.fee }))), now);
    await deps.ledgerStore.post(tx, clientId, schedulePosting(p.id, p.items.map((i) => ({ receivableId: i.receivableId, receiver, net: i.net }))), now);
    await scheduleBatch(deps, tx, p, batchId, open, now);
    const committed: Prepayment = { ...p, status: 'committed', committedAt: now };
    await deps.prepaymentStore.setStatus(tx, clientId, p.id, 'committed', now);
    await recordPrepaymentEvent(tx, PREPAYMENT_EVENTS.committed, committed, now);
    return committed;
  });
  if (outcome === 'expired') {
    throw errors.businessRule('prepayment_simulation_expired', 'The simulation expired (15:00 Brasília cutoff, or 30 minutes): simulate again');
  }
  deps.outbox?.kick();
  return outcome;
}
