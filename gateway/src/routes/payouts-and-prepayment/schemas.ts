import {
  BalanceSchema,
  PAYMENT_BATCH_STATUSES,
  PAYMENT_TYPES,
  PaymentBatchSchema,
  PayoutOrderSchema,
  PLAN_LIMITS,
  PlanSchema,
  PREPAYMENT_LIMITS,
  PrepaymentReceivablesSchema,
  PrepaymentSchema,
} from '@platform/api-model';
import { amount, commaJoined, int32 } from '../../http/fields';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const id = z.string({ error: requiredOr('must be a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const filter = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional();
const sellerFilter = filter.openapi({ description: "A seller's id; absent: the client's main account" });

const DAY_MESSAGE = 'must be a date (YYYY-MM-DD)';
const DATE_FILTER_MESSAGE = 'must be an RFC 3339 date-time or a date (YYYY-MM-DD)';
const isoDay = z.iso.date();
const isoInstant = z.iso.datetime({ offset: true });

/** A calendar date of the platform: "YYYY-MM-DD", a real day. */
const day = z.iso.date({ error: requiredOr(DAY_MESSAGE) }).openapi({ example: '2026-06-01' });

const BRASILIA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar date an instant falls on in Brasília, where the ledger keeps its dates. */
export function brasiliaDay(instant: Date): string {
  return BRASILIA_DAY.format(instant);
}

/** A date filter: a date as it is, or an instant as the Brasília date it falls on. */
const dateFilter = (description: string) =>
  z
    .string({ error: DATE_FILTER_MESSAGE })
    .transform((value, ctx) => {
      if (isoDay.safeParse(value).success) return value;
      if (isoInstant.safeParse(value).success) return brasiliaDay(new Date(value));
      ctx.addIssue({ code: 'custom', message: DATE_FILTER_MESSAGE });
      return z.NEVER;
    })
    .optional()
    .openapi({ type: 'string', description: `${description}: a date (YYYY-MM-DD) or an RFC 3339 date-time, read as its date in Brasília time`, example: '2026-05-01' });

/** endDate before startDate names endDate. */
function datesInOrder(query: { startDate?: string; endDate?: string }, ctx: z.RefinementCtx): void {
  if (query.startDate !== undefined && query.endDate !== undefined && query.endDate < query.startDate) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
  }
}

// ---- Payouts -------------------------------------------------------------------------------------------------

export const BalanceQuery = z.object({ sellerId: sellerFilter });

export const ListPaymentBatchesQuery = paginationQuery
  .extend({
    sellerId: sellerFilter,
    status: commaJoined(PAYMENT_BATCH_STATUSES).optional(),
    startDate: dateFilter('Batches paid on or after this date'),
    endDate: dateFilter('Batches paid on or before this date'),
  })
  .superRefine(datesInOrder);

export const ListPayoutOrdersQuery = paginationQuery
  .extend({
    sellerId: sellerFilter,
    startDate: dateFilter('Orders scheduled on or after this date'),
    endDate: dateFilter('Orders scheduled on or before this date'),
    chargeId: filter.openapi({ description: 'The orders of one charge' }),
  })
  .superRefine(datesInOrder);

export const PageQuery = paginationQuery;

export const IdParams = z.object({ id: z.string().min(1).max(200) });

export const AdvanceSettlementBody = z
  .object({ date: day.openapi({ description: 'Settle as if today were this date (Brasília): every receivable due by then' }) })
  .openapi('AdvanceSettlementRequest');

/** The answers here are the API model's schemas. */
export { BalanceSchema, PaymentBatchSchema, PayoutOrderSchema, PlanSchema, PrepaymentReceivablesSchema, PrepaymentSchema };

export const PaymentBatchListSchema = listSchema(PaymentBatchSchema, 'PaymentBatchList');

export const PayoutOrderListSchema = listSchema(PayoutOrderSchema, 'PayoutOrderList');

export const AdvanceSettlementSchema = z
  .object({ batches: z.array(PaymentBatchSchema).openapi({ description: 'The batches the run created or paid' }) })
  .openapi('AdvanceSettlement');

// ---- Plans ---------------------------------------------------------------------------------------------------

const L = PLAN_LIMITS;
const planName = z
  .string({ error: requiredOr('must be a string') })
  .trim()
  .min(L.nameMinLength, 'must not be empty')
  .max(L.nameMaxLength, `must be at most ${L.nameMaxLength} characters`);
const installments = int32()
  .min(L.installmentsMin, `must be at least ${L.installmentsMin}`)
  .max(L.installmentsMax, `must be at most ${L.installmentsMax}`);
const settlementDays = int32('must be a whole number of days').min(0, 'must be at least 0').max(L.settlementDaysMax, `must be at most ${L.settlementDaysMax}`);
const monthlyRate = int32('must be a whole number of basis points')
  .min(0, 'must be at least 0')
  .max(L.prepaymentMonthlyRateMax, `must be at most ${L.prepaymentMonthlyRateMax}`)
  .openapi({ description: 'Prepayment fee, basis points a month' });

export const PlanFeeInput = z
  .object(
    {
      paymentType: z.enum(PAYMENT_TYPES, { error: requiredOr(oneOf(PAYMENT_TYPES)) }),
      installmentsFrom: installments.default(L.installmentsMin).openapi({ description: 'First installment count the fee applies to (default 1)' }),
      installmentsTo: installments.default(L.installmentsMax).openapi({ description: `Last installment count the fee applies to (default ${L.installmentsMax})` }),
      percentage: int32('must be a whole number of basis points')
        .min(0, 'must be at least 0')
        .max(L.percentageMax, `must be at most ${L.percentageMax}`)
        .default(0)
        .openapi({ description: 'Basis points of the gross' }),
      fixedAmount: amount()
        .min(0, 'must be at least 0')
        .max(L.fixedAmountMax, `must be at most ${L.fixedAmountMax}`)
        .default(0)
        .openapi({ description: 'Minor units, per receivable' }),
    },
    { error: requiredOr('must be an object') },
  )
  .superRefine((fee, ctx) => {
    if (fee.installmentsFrom > fee.installmentsTo) ctx.addIssue({ code: 'custom', path: ['installmentsTo'], message: 'must be at least installmentsFrom' });
  })
  .openapi('PlanFeeInput');

/** What a plan's fee table must price (the service refuses a gap); the default plan's credit bands run to 24 installments. */
const PLAN_FEES_COVER = `together they price every installment count a charge accepts (credit 1 to ${L.installmentsMax}, the other types 1): a table with a gap is refused with 400, a detail naming each gap (\`no fee covers credit in 13 to 24 installments\`)`;

/** The fee table: at most one fee for a payment type and an installment count. */
const fees = z
  .array(PlanFeeInput, { error: requiredOr('must be an array') })
  .max(L.maxFees, `must list at most ${L.maxFees} fees`)
  .superRefine((list, ctx) => {
    list.forEach((fee, i) => {
      const earlier = list.findIndex((other, j) => j < i && other.paymentType === fee.paymentType && other.installmentsFrom <= fee.installmentsTo && fee.installmentsFrom <= other.installmentsTo);
      if (earlier >= 0) ctx.addIssue({ code: 'custom', path: [i, 'installmentsFrom'], message: `overlaps the installments of fees.${earlier} (${fee.paymentType})` });
    });
  });

export const SettlementDaysInput = z
  .object(
    {
      credit: settlementDays.optional().openapi({ description: 'Days to each installment, times its number' }),
      debit: settlementDays.optional(),
      pix: settlementDays.optional(),
      boleto: settlementDays.optional(),
      voucher: settlementDays.optional(),
    },
    { error: requiredOr('must be an object') },
  )
  .openapi('SettlementDaysInput', { description: 'Days from the capture to the settlement, by method; a method left out keeps its value (on create: the default)' });

export const CreatePlanBody = z
  .object({
    name: planName,
    isDefault: z.boolean({ error: requiredOr('must be true or false') }).optional().openapi({ description: 'true: this plan becomes the default one' }),
    fees: fees.optional().openapi({ description: `Fees by payment type and installments; ${PLAN_FEES_COVER}. Absent or empty: the default plan's fees` }),
    settlementDays: SettlementDaysInput.optional(),
    prepaymentMonthlyRate: monthlyRate.optional(),
  })
  .openapi('CreatePlanRequest');

export const UpdatePlanBody = z
  .object({
    name: planName.optional(),
    isDefault: z
      .literal(true, { error: requiredOr('must be true: a plan stops being the default only when another becomes it') })
      .optional()
      .openapi({ description: 'Only true: the default moves to this plan' }),
    fees: fees.optional().openapi({ description: `When given, replaces every fee of the plan; ${PLAN_FEES_COVER}` }),
    settlementDays: SettlementDaysInput.optional(),
    prepaymentMonthlyRate: monthlyRate.optional(),
  })
  .openapi('UpdatePlanRequest');

export const PlanListSchema = listSchema(PlanSchema, 'PlanList');

// ---- Prepayment ----------------------------------------------------------------------------------------------

export const ReceivablesQuery = z.object({ sellerId: sellerFilter });

export const SimulatePrepaymentBody = z
  .object({
    sellerId: id.optional().openapi({ description: "A seller's id; absent: the client's main account" }),
    endDate: day.optional().openapi({ description: 'Every receivable expected up to this date; or dates' }),
    dates: z
      .array(day, { error: requiredOr('must be an array') })
      .min(1, 'must list at least one date')
      .max(PREPAYMENT_LIMITS.maxDates, `must list at most ${PREPAYMENT_LIMITS.maxDates} dates`)
      .optional()
      .openapi({ description: 'The receipt dates whose receivables are prepaid; or endDate' }),
  })
  .superRefine((body, ctx) => {
    if (body.endDate === undefined && body.dates === undefined) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'is required unless dates is given' });
    else if (body.endDate !== undefined && body.dates !== undefined) ctx.addIssue({ code: 'custom', path: ['dates'], message: 'must not be given with endDate: one or the other' });
  })
  .openapi('SimulatePrepaymentRequest', { description: 'Exactly one of endDate and dates' });

export type ListPaymentBatchesInput = z.infer<typeof ListPaymentBatchesQuery>;
export type ListPayoutOrdersInput = z.infer<typeof ListPayoutOrdersQuery>;
export type CreatePlanInput = z.infer<typeof CreatePlanBody>;
export type UpdatePlanInput = z.infer<typeof UpdatePlanBody>;
export type PlanFeeInputValue = z.infer<typeof PlanFeeInput>;
export type SimulatePrepaymentInput = z.infer<typeof SimulatePrepaymentBody>;
