import type { payouts } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { PAYMENT_TYPES } from '../enums';
import { requiredTimestamp, textOrNull, timestampOrNull } from './json';

/**
 * Plans, the split ledger (balances, payment batches and their orders) and prepayment: the public JSON of
 * /v1/payouts and /v1/subacquirer, and the `data` of the payouts context's events. Calendar dates are
 * "YYYY-MM-DD" in Brasília time; amounts are minor units; percentages and rates are basis points.
 */

/** Payout (transfer) statuses of a payment batch. */
export const PAYMENT_BATCH_STATUSES = ['pending', 'paid', 'failed', 'offset'] as const;
export type PaymentBatchStatus = (typeof PAYMENT_BATCH_STATUSES)[number];

/** What put an order in a batch: the capture, a refund or a chargeback. */
export const PAYOUT_ORDER_TYPES = ['authorization', 'void', 'charge_back'] as const;

/** Statuses of a prepayment simulation. */
export const PREPAYMENT_STATUSES = ['pending', 'committed', 'expired'] as const;

/** Domain event types of the payouts context (data: the batch as `toPaymentBatchJson` writes it). */
export const PAYMENT_BATCH_EVENT_TYPES = {
  created: 'payouts.payment_batch.created',
  paid: 'payouts.payment_batch.paid',
  failed: 'payouts.payment_batch.failed',
} as const;

/** Domain event types of prepayments (data: the prepayment as `toPrepaymentJson` writes it). */
export const PREPAYMENT_EVENT_TYPES = {
  created: 'payouts.prepayment.created',
  committed: 'payouts.prepayment.committed',
} as const;

/**
 * The business code of a client that is not enabled for prepayment: the service refuses with `forbidden` and this
 * code, and the REST answer also carries it (with `networkDeniedMessage`) at the top level of the body.
 */
export const PREPAYMENT_DENIED_CODE = 'I-403';

/** Plans (POST/PATCH /v1/subacquirer/plans): the gateway advertises and checks these, the service checks them again. */
export const PLAN_LIMITS = {
  nameMinLength: 1,
  nameMaxLength: 100,
  /** Fee rows of one plan: at most one per payment type and installment count. */
  maxFees: PAYMENT_TYPES.length * 24,
  installmentsMin: 1,
  installmentsMax: 24,
  /** Basis points of the gross: at most the whole amount. */
  percentageMax: 10_000,
  /** Minor units: R$ 1,000,000.00. */
  fixedAmountMax: 100_000_000,
  settlementDaysMax: 365,
  /** Basis points a month. */
  prepaymentMonthlyRateMax: 10_000,
} as const;

/** Prepayment simulations (POST /v1/subacquirer/prepayment). */
export const PREPAYMENT_LIMITS = {
  /** Receipt dates of one simulation. */
  maxDates: 100,
} as const;

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new AppError('internal', `upstream answer without ${field}`);
  return value;
}

export interface PlanFeeJson {
  paymentType: string;
  installmentsFrom: number;
  installmentsTo: number;
  percentage: number;
  fixedAmount: number;
}

export interface SettlementDaysJson {
  credit: number;
  debit: number;
  pix: number;
  boleto: number;
  voucher: number;
}

/** A plan: fees by payment type and installments, settlement days by method, the prepayment rate. */
export interface PlanJson {
  id: string;
  name: string;
  isDefault: boolean;
  fees: PlanFeeJson[];
  settlementDays: SettlementDaysJson;
  prepaymentMonthlyRate: number;
  createdAt: string;
  updatedAt: string;
}

export function toPlanJson(plan: payouts.Plan): PlanJson {
  const days = required(plan.settlementDays, 'settlementDays');
  return {
    id: plan.id,
    name: plan.name,
    isDefault: plan.isDefault,
    fees: plan.fees.map((fee) => ({
      paymentType: fee.paymentType,
      installmentsFrom: fee.installmentsFrom,
      installmentsTo: fee.installmentsTo,
      percentage: fee.percentage,
      fixedAmount: fee.fixedAmount,
    })),
    settlementDays: { credit: days.credit, debit: days.debit, pix: days.pix, boleto: days.boleto, voucher: days.voucher },
    prepaymentMonthlyRate: plan.prepaymentMonthlyRate,
    createdAt: requiredTimestamp(plan.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(plan.updatedAt, 'updatedAt'),
  };
}

/** The balance of a receiver (a seller, or the client's main account). */
export interface BalanceJson {
  /** Settled and not yet transferred. */
  available: number;
  /** Future receivables. */
  receivable: number;
}

export function toBalanceJson(balance: payouts.Balance): BalanceJson {
  return { available: balance.available, receivable: balance.receivable };
}

/** A payment batch: one transfer to one receiver on one date. */
export interface PaymentBatchJson {
  id: string;
  /** Null for the client's main account. */
  sellerId: string | null;
  amount: number;
  feeAmount: number;
  refundAmount: number;
  finalBalance: number;
  paymentDate: string;
  status: string;
  paymentMethod: string;
  createdAt: string;
  updatedAt: string;
}

export function toPaymentBatchJson(batch: payouts.PaymentBatch): PaymentBatchJson {
  return {
    id: batch.id,
    sellerId: textOrNull(batch.sellerId),
    amount: batch.amount,
    feeAmount: batch.feeAmount,
    refundAmount: batch.refundAmount,
    finalBalance: batch.finalBalance,
    paymentDate: batch.paymentDate,
    status: batch.status,
    paymentMethod: batch.paymentMethod,
    createdAt: requiredTimestamp(batch.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(batch.updatedAt, 'updatedAt'),
  };
}

/** A payment order: one receivable (or its offset) in a batch. */
export interface PayoutOrderJson {
  id: string;
  chargeId: string;
  /** Null while the order is in no batch yet. */
  paymentBatchId: string | null;
  /** Null for the client's main account. */
  sellerId: string | null;
  /** Net: gross less fees (and less what refunds took). */
  amount: number;
  grossAmount: number;
  totalFeeAmount: number;
  installment: number;
  totalInstallments: number;
  paymentMethod: string;
  type: string;
  paymentScheduledAt: string;
  createdAt: string;
}

export function toPayoutOrderJson(order: payouts.Order): PayoutOrderJson {
  return {
    id: order.id,
    chargeId: order.chargeId,
    paymentBatchId: textOrNull(order.paymentBatchId),
    sellerId: textOrNull(order.sellerId),
    amount: order.amount,
    grossAmount: order.grossAmount,
    totalFeeAmount: order.totalFeeAmount,
    installment: order.installment,
    totalInstallments: order.totalInstallments,
    paymentMethod: order.paymentMethod,
    type: order.type,
    paymentScheduledAt: order.paymentScheduledAt,
    createdAt: requiredTimestamp(order.createdAt, 'createdAt'),
  };
}

export interface PrepaymentReceivableJson {
  id: string;
  settlementDate: string;
  paymentArrangement: string;
  amount: number;
}

/** The receivables a receiver may prepay, with their total. */
export interface PrepaymentReceivablesJson {
  summary: { availableAmount: number; receivableCount: number };
  receivables: PrepaymentReceivableJson[];
}

export function toPrepaymentReceivablesJson(answer: payouts.PrepaymentReceivables): PrepaymentReceivablesJson {
  return {
    summary: { availableAmount: answer.availableAmount, receivableCount: answer.receivableCount },
    receivables: answer.receivables.map((r) => ({ id: r.id, settlementDate: r.settlementDate, paymentArrangement: r.paymentArrangement, amount: r.amount })),
  };
}

export interface PrepaymentItemJson {
  receivableId: string;
  settlementDate: string;
  paymentArrangement: string;
  amount: number;
  days: number;
  feeAmount: number;
  netAmount: number;
}

/** A prepayment: a simulation (`pending`) until committed, or `expired`. */
export interface PrepaymentJson {
  id: string;
  /** Null for the client's main account. */
  sellerId: string | null;
  status: string;
  grossAmount: number;
  netAmount: number;
  feeAmount: number;
  monthlyRate: number;
  expiresAt: string;
  paymentDate: string;
  calendar: string;
  feeConvention: string;
  items: PrepaymentItemJson[];
  createdAt: string;
  committedAt: string | null;
}

export function toPrepaymentJson(prepayment: payouts.Prepayment): PrepaymentJson {
  return {
    id: prepayment.id,
    sellerId: textOrNull(prepayment.sellerId),
    status: prepayment.status,
    grossAmount: prepayment.grossAmount,
    netAmount: prepayment.netAmount,
    feeAmount: prepayment.feeAmount,
    monthlyRate: prepayment.monthlyRate,
    expiresAt: requiredTimestamp(prepayment.expiresAt, 'expiresAt'),
    paymentDate: prepayment.paymentDate,
    calendar: prepayment.calendar,
    feeConvention: prepayment.feeConvention,
    items: prepayment.items.map((item) => ({
      receivableId: item.receivableId,
      settlementDate: item.settlementDate,
      paymentArrangement: item.paymentArrangement,
      amount: item.amount,
      days: item.days,
      feeAmount: item.feeAmount,
      netAmount: item.netAmount,
    })),
    createdAt: requiredTimestamp(prepayment.createdAt, 'createdAt'),
    committedAt: timestampOrNull(prepayment.committedAt),
  };
}
