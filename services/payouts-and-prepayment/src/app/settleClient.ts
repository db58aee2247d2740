import { randomUUID } from 'node:crypto';
import { withTransaction } from '@platform/kit';
import { availableAccount, scheduledSettlementPosting, settlementPosting } from '../domain/ledger';
import type { PaymentBatch, PaymentOrder } from '../domain/batch';
import type { Receivable, ReceiverDebit } from '../store/ledgerStore';
import { recordBatchEvent, BATCH_EVENTS } from '../events/payoutEvents';
import type { PayoutsDeps } from './deps';
import { payBatch } from './payBatch';

/**
 * Settles a client as of `date`: every receivable due by then moves to its receiver's available balance (one settlement
 * posting each) and, with the receiver's open debits, makes one payment batch per receiver whose orders add up to it.
 * Receivables a prepayment committed already have their `pending` batch (made by the commit): they move from the
 * scheduled account to available and that batch is paid, no second one is made; a receiver's open debits go with
 * its new batch, or, when it has none this date, with its prepayment batch.
 * The batches are then paid: a blocked seller's waits `pending`, a batch that pays nothing (fully offset) is `offset`.
 * Run twice for the same date, the second run finds nothing due.
 */
export async function settleClient(deps: PayoutsDeps, clientId: string, date: string): Promise<PaymentBatch[]> {
  const now = deps.clock.now();
  const created = await withTransaction(deps.pool, async (tx) => {
    const due = await deps.ledgerStore.dueReceivables(tx, clientId, date);
    const debits = await deps.ledgerStore.openDebits(tx, clientId);
    const open = await deps.ledgerStore.openAmounts(tx, clientId, due.map((r) => r.id));
    const receivers = new Map<string | null, { receivables: Receivable[]; debits: ReceiverDebit[] }>();
    const group = (receiver: string | null) => {
      let entry = receivers.get(receiver);
      if (!entry) receivers.set(receiver, (entry = { receivables: [], debits: [] }));
      return entry;
    };
    // Prepaid receivables with the batch their commit made, by batch.
    const scheduled = new Map<string, Receivable[]>();
    for (const r of due) {
      if (r.status === 'prepaid' && r.batchId !== null) scheduled.set(r.batchId, [...(scheduled.get(r.batchId) ?? []), r]);
      else group(r.receiver).receivables.push(r);
    }
    for (const d of debits) group(d.receiver).debits.push(d);

    const batches: PaymentBatch[] = [];
    for (const [batchId, receivables] of scheduled) {
      for (const r of receivables) {
        const amount = open.get(r.id)?.scheduled ?? 0;
        if (amount > 0) await deps.ledgerStore.post(tx, clientId, scheduledSettlementPosting(r.id, r.receiver, amount), now);
      }
      await deps.ledgerStore.markSettled(tx, clientId, receivables.map((r) => r.id), batchId);
      const batch = await deps.batchStore.findBatch(tx, clientId, batchId, { forUpdate: true });
      if (!batch) continue;
      const work = receivers.get(batch.receiver);
      if (work && work.receivables.length === 0 && work.debits.length > 0 && batch.status === 'pending') {
        // The receiver's debits are taken from this transfer, as they would be from a batch of this date.
        const orders = work.debits.map((d) => debitOrder(clientId, batchId, batch.receiver, d, date, now));
        await deps.batchStore.insertOrders(tx, orders);
        await deps.ledgerStore.closeDebits(tx, clientId, work.debits.map((d) => d.id), batchId);
        const amount = batch.amount + orders.reduce((s, o) => s + o.amount, 0);
        const changed: PaymentBatch = {
          ...batch,
          amount,
          status: amount > 0 ? 'pending' : 'offset',
          refundAmount: batch.refundAmount + work.debits.reduce((s, d) => s + d.amount, 0),
          finalBalance: await deps.ledgerStore.accountBalance(tx, clientId, availableAccount(batch.receiver)),
          updatedAt: now,
        };
        await deps.batchStore.updateBatchAmounts(tx, changed);
        receivers.delete(batch.receiver);
        batches.push(changed);
      } else {
        batches.push(batch);
      }
    }
    for (const [receiver, work] of receivers) {
      const batchId = randomUUID();
      const orders: PaymentOrder[] = [];
      for (const r of work.receivables) {
        const amounts = open.get(r.id) ?? { net: 0, fee: 0 };
        if (amounts.net > 0) await deps.ledgerStore.post(tx, clientId, settlementPosting(r.id, receiver, amounts.net), now);
        orders.push({
          id: randomUUID(),
          clientId,
          batchId,
          chargeId: r.chargeId,
          receiver,
          receivableId: r.id,
          amount: amounts.net,
          grossAmount: amounts.net + amounts.fee,
          totalFeeAmount: amounts.fee,
          installment: r.installment,
          totalInstallments: r.totalInstallments,
          paymentMethod: r.paymentType,
          type: 'authorization',
          paymentScheduledAt: date,
          createdAt: now,
        });
      }
      for (const d of work.debits) orders.push(debitOrder(clientId, batchId, receiver, d, date, now));
      const amount = orders.reduce((s, o) => s + o.amount, 0);
      const batch: PaymentBatch = {
        id: batchId,
        clientId,
        receiver,
        paymentDate: date,
        status: amount > 0 ? 'pending' : 'offset',
        paymentMethod: deps.payouts.method,
        amount,
        feeAmount: orders.filter((o) => o.type === 'authorization').reduce((s, o) => s + o.totalFeeAmount, 0),
        refundAmount: work.debits.reduce((s, d) => s + d.amount, 0),
        finalBalance: await deps.ledgerStore.accountBalance(tx, clientId, availableAccount(receiver)),
        attempts: 0,
        createdAt: now,
        updatedAt: now,
      };
      await deps.batchStore.insertBatch(tx, batch);
      await deps.batchStore.insertOrders(tx, orders);
      await deps.ledgerStore.markSettled(tx, clientId, work.receivables.map((r) => r.id), batchId);
      await deps.ledgerStore.closeDebits(tx, clientId, work.debits.map((d) => d.id), batchId);
      await recordBatchEvent(tx, BATCH_EVENTS.created, batch, now);
      batches.push(batch);
    }
    return batches;
  });
  deps.outbox?.kick();
  const results: PaymentBatch[] = [];
  for (const batch of created) results.push(batch.status === 'pending' ? await payBatch(deps, clientId, batch.id) : batch);
  return results;
}

/** The order of a batch that takes a receiver's debit (a refund or chargeback its settled receivables could not give). */
function debitOrder(clientId: string, batchId: string, receiver: string | null, d: ReceiverDebit, date: string, now: Date): PaymentOrder {
  return {
    id: randomUUID(),
    clientId,
    batchId,
    chargeId: d.chargeId,
    receiver,
    receivableId: null,
    amount: -d.amount,
    grossAmount: -d.amount,
    totalFeeAmount: 0,
    installment: 1,
    totalInstallments: 1,
    paymentMethod: 'debit_balance',
    type: d.type,
    paymentScheduledAt: date,
    createdAt: now,
  };
}
