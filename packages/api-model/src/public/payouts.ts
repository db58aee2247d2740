import type { payouts } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { PAYMENT_TYPES } from '../enums';
import { z } from '../zod';
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

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const calendarDate = z.string().openapi({ format: 'date', example: '2026-06-01' });
const timestamp = z.string().openapi({ format: 'date-time' });

/** A plan: fees by payment type and installments, settlement days by method, the prepayment rate. */
export const PlanSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    isDefault: z.boolean(),
    fees: z.array(
      z
        .object({ paymentType: z.string(), installmentsFrom: z.int(), installmentsTo: z.int(), percentage: z.int(), fixedAmount: z.int() })
        .openapi('PlanFee'),
    ),
    settlementDays: z.object({ credit: z.int(), debit: z.int(), pix: z.int(), boleto: z.int(), voucher: z.int() }).openapi('SettlementDays'),
    prepaymentMonthlyRate: z.int().openapi({ description: 'Basis points a month' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Plan');

export type PlanJson = z.infer<typeof PlanSchema>;
export type PlanFeeJson = PlanJson['fees'][number];
export type SettlementDaysJson = PlanJson['settlementDays'];

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
export const BalanceSchema = z
  .object({
    available: z.int().openapi({ description: 'Settled and not yet transferred (minor units)' }),
    receivable: z.int().openapi({ description: 'Future receivables (minor units); those a committed prepayment took are not counted: their net is in a pending batch' }),
  })
  .openapi('PayoutBalance');

export type BalanceJson = z.infer<typeof BalanceSchema>;

export function toBalanceJson(balance: payouts.Balance): BalanceJson {
  return { available: balance.available, receivable: balance.receivable };
}

/** A payment batch: one transfer to one receiver on one date. */
export const PaymentBatchSchema = z
  .object({
    id: z.string(),
    sellerId: z.string().nullable().openapi({ description: "Null for the client's main account" }),
    amount: z.int().openapi({ description: 'What the batch pays: the sum of its orders' }),
    feeAmount: z.int(),
    refundAmount: z.int(),
    finalBalance: z.int().openapi({ description: "The receiver's available balance once the batch is paid" }),
    paymentDate: calendarDate,
    status: z.string().openapi({ description: oneOf(PAYMENT_BATCH_STATUSES) }),
    paymentMethod: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('PaymentBatch');

export type PaymentBatchJson = z.infer<typeof PaymentBatchSchema>;

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
export const PayoutOrderSchema = z
  .object({
    id: z.string(),
    chargeId: z.string(),
    paymentBatchId: z.string().nullable(),
    sellerId: z.string().nullable().openapi({ description: "Null for the client's main account" }),
    amount: z.int().openapi({ description: 'Net: gross less fees (and less what refunds took)' }),
    grossAmount: z.int(),
    totalFeeAmount: z.int(),
    installment: z.int(),
    totalInstallments: z.int(),
    paymentMethod: z.string(),
    type: z.string().openapi({ description: oneOf(PAYOUT_ORDER_TYPES) }),
    paymentScheduledAt: calendarDate,
    createdAt: timestamp,
  })
  .openapi('PayoutOrder');

export type PayoutOrderJson = z.infer<typeof PayoutOrderSchema>;

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

/** The receivables a receiver may prepay, with their total. */
export const PrepaymentReceivablesSchema = z
  .object({
    summary: z.object({ availableAmount: z.int(), receivableCount: z.int() }),
    receivables: z.array(
      z
        .object({
          id: z.string(),
          settlementDate: calendarDate,
          paymentArrangement: z.string().openapi({ description: 'The card scheme arrangement (credit, debit, pix...)' }),
          amount: z.int().openapi({ description: 'What the receivable will pay: its net' }),
        })
        .openapi('PrepaymentReceivable'),
    ),
  })
  .openapi('PrepaymentReceivables');

export type PrepaymentReceivablesJson = z.infer<typeof PrepaymentReceivablesSchema>;
export type PrepaymentReceivableJson = PrepaymentReceivablesJson['receivables'][number];

export function toPrepaymentReceivablesJson(answer: payouts.PrepaymentReceivables): PrepaymentReceivablesJson {
  return {
    summary: { availableAmount: answer.availableAmount, receivableCount: answer.receivableCount },
    receivables: answer.receivables.map((r) => ({ id: r.id, settlementDate: r.settlementDate, paymentArrangement: r.paymentArrangement, amount: r.amount })),
  };
}

/** A prepayment: a simulation (`pending`) until committed, or `expired`. */
export const PrepaymentSchema = z
  .object({
    id: z.string(),
    sellerId: z.string().nullable().openapi({ description: "Null for the client's main account" }),
    status: z.string().openapi({ description: oneOf(PREPAYMENT_STATUSES) }),
    grossAmount: z.int(),
    netAmount: z.int(),
    feeAmount: z.int(),
    monthlyRate: z.int().openapi({ description: 'Basis points a month' }),
    expiresAt: timestamp.openapi({ description: 'Commit before this instant' }),
    paymentDate: calendarDate,
    calendar: z.string().openapi({ description: 'The business calendar the simulation used' }),
    feeConvention: z.string().openapi({ description: 'How the fee was computed' }),
    items: z.array(
      z
        .object({
          receivableId: z.string(),
          settlementDate: calendarDate,
          paymentArrangement: z.string(),
          amount: z.int(),
          days: z.int().openapi({ description: 'From the payment date to the settlement date' }),
          feeAmount: z.int(),
          netAmount: z.int(),
        })
        .openapi('PrepaymentItem'),
    ),
    createdAt: timestamp,
    committedAt: timestamp.nullable(),
  })
  .openapi('Prepayment');

export type PrepaymentJson = z.infer<typeof PrepaymentSchema>;
export type PrepaymentItemJson = PrepaymentJson['items'][number];

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
