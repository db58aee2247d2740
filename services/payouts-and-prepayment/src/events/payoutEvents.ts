import { toPaymentBatchJson, toPrepaymentJson } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { PaymentBatch } from '../domain/batch';
import type { Prepayment } from '../domain/prepayment';
import { toBatchMessage } from '../wire/batchMessages';
import { toPrepaymentMessage } from '../wire/prepaymentMessages';

/** Events of payment batches; `data` is the batch as the REST API shows it. */
export const BATCH_EVENTS = {
  created: 'payouts.payment_batch.created',
  paid: 'payouts.payment_batch.paid',
  failed: 'payouts.payment_batch.failed',
} as const;

/** Events of prepayments; `data` is the prepayment as the REST API shows it. */
export const PREPAYMENT_EVENTS = {
  created: 'payouts.prepayment.created',
  committed: 'payouts.prepayment.committed',
} as const;

/** Written in the transaction of the change. */
export async function recordBatchEvent(tx: Queryable, type: (typeof BATCH_EVENTS)[keyof typeof BATCH_EVENTS], batch: PaymentBatch, at: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: batch.clientId, data: toPaymentBatchJson(toBatchMessage(batch)), occurredAt: at });
}

export async function recordPrepaymentEvent(tx: Queryable, type: (typeof PREPAYMENT_EVENTS)[keyof typeof PREPAYMENT_EVENTS], prepayment: Prepayment, at: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: prepayment.clientId, data: toPrepaymentJson(toPrepaymentMessage(prepayment)), occurredAt: at });
}
