import { payouts } from '@platform/contracts';
import type { PaymentBatch, PaymentOrder } from '../domain/batch';

export function toBatchMessage(batch: PaymentBatch): payouts.PaymentBatch {
  return payouts.PaymentBatch.fromPartial({
    id: batch.id,
    clientId: batch.clientId,
    sellerId: batch.receiver ?? '',
    amount: batch.amount,
    feeAmount: batch.feeAmount,
    refundAmount: batch.refundAmount,
    finalBalance: batch.finalBalance,
    paymentDate: batch.paymentDate,
    status: batch.status,
    paymentMethod: batch.paymentMethod,
    createdAt: batch.createdAt,
    updatedAt: batch.updatedAt,
  });
}

export function toOrderMessage(order: PaymentOrder): payouts.Order {
  return payouts.Order.fromPartial({
    id: order.id,
    clientId: order.clientId,
    chargeId: order.chargeId,
    paymentBatchId: order.batchId,
    sellerId: order.receiver ?? '',
    amount: order.amount,
    grossAmount: order.grossAmount,
    totalFeeAmount: order.totalFeeAmount,
    installment: order.installment,
    totalInstallments: order.totalInstallments,
    paymentMethod: order.paymentMethod,
    type: order.type,
    paymentScheduledAt: order.paymentScheduledAt,
    createdAt: order.createdAt,
  });
}
