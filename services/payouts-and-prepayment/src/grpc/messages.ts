import { payouts } from '@platform/contracts';
import type { Plan } from '../domain/plan';
import type { PaymentBatch, PaymentOrder, Prepayment } from '../store/batchStore';
import { CALENDAR_NAME } from '../domain/calendar';
import { FEE_CONVENTION } from '../domain/prepayment';

export function toPlanMessage(plan: Plan): payouts.Plan {
  return payouts.Plan.fromPartial({
    id: plan.id,
    clientId: plan.clientId,
    name: plan.name,
    isDefault: plan.isDefault,
    fees: plan.fees.map((f) => ({ ...f })),
    settlementDays: { ...plan.settlementDays },
    prepaymentMonthlyRate: plan.prepaymentMonthlyRate,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
  });
}

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

export function toPrepaymentMessage(p: Prepayment): payouts.Prepayment {
  return payouts.Prepayment.fromPartial({
    id: p.id,
    clientId: p.clientId,
    sellerId: p.receiver ?? '',
    status: p.status,
    grossAmount: p.grossAmount,
    netAmount: p.netAmount,
    feeAmount: p.feeAmount,
    monthlyRate: p.monthlyRate,
    expiresAt: p.expiresAt,
    paymentDate: p.paymentDate,
    calendar: CALENDAR_NAME,
    feeConvention: FEE_CONVENTION,
    items: p.items.map((i) => ({
      receivableId: i.receivableId,
      settlementDate: i.settlementDate,
      paymentArrangement: i.paymentArrangement,
      amount: i.amount,
      days: i.days,
      feeAmount: i.fee,
      netAmount: i.net,
    })),
    createdAt: p.createdAt,
    ...(p.committedAt ? { committedAt: p.committedAt } : {}),
  });
}
