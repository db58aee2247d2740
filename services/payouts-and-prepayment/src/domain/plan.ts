import { isPaymentType, PAYMENT_TYPES, type PaymentType } from '@platform/api-model';
import { errors, type FieldViolation } from '@platform/kit';

export { isPaymentType, PAYMENT_TYPES, type PaymentType };

/** The fee of a plan for a payment type and a range of installments: basis points of the gross plus a fixed amount. */
export interface PlanFee {
  paymentType: PaymentType;
  installmentsFrom: number;
  installmentsTo: number;
  /** Basis points of the gross: 10000 = 100 %. */
  percentage: number;
  /** Minor units added to the percentage part. */
  fixedAmount: number;
}

/** Calendar days from the capture to the settlement of each method (credit: of each installment, times its number). */
export type SettlementDays = Record<PaymentType, number>;

/** A client's plan; exactly one plan of a client is its default, and a seller links to one plan. */
export interface Plan {
  id: string;
  clientId: string;
  name: string;
  isDefault: boolean;
  fees: PlanFee[];
  settlementDays: SettlementDays;
  /** Basis points a month charged for prepayment. */
  prepaymentMonthlyRate: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Brazilian customs: credit installment n at D+30·n, debit, Pix and boleto at D+1, voucher at D+30. Frozen: copy it
 * (`{ ...DEFAULT_SETTLEMENT_DAYS }`) to build a plan.
 */
export const DEFAULT_SETTLEMENT_DAYS: SettlementDays = Object.freeze({ credit: 30, debit: 1, pix: 1, boleto: 1, voucher: 30 });

const DEFAULT_FEE_RULES: PlanFee[] = [
  { paymentType: 'credit', installmentsFrom: 1, installmentsTo: 1, percentage: 299, fixedAmount: 0 },
  { paymentType: 'credit', installmentsFrom: 2, installmentsTo: 6, percentage: 349, fixedAmount: 0 },
  { paymentType: 'credit', installmentsFrom: 7, installmentsTo: 12, percentage: 399, fixedAmount: 0 },
  { paymentType: 'credit', installmentsFrom: 13, installmentsTo: 18, percentage: 449, fixedAmount: 0 },
  { paymentType: 'credit', installmentsFrom: 19, installmentsTo: 24, percentage: 499, fixedAmount: 0 },
  { paymentType: 'debit', installmentsFrom: 1, installmentsTo: 1, percentage: 199, fixedAmount: 0 },
  { paymentType: 'pix', installmentsFrom: 1, installmentsTo: 1, percentage: 99, fixedAmount: 0 },
  { paymentType: 'boleto', installmentsFrom: 1, installmentsTo: 1, percentage: 0, fixedAmount: 349 },
  { paymentType: 'voucher', installmentsFrom: 1, installmentsTo: 1, percentage: 499, fixedAmount: 0 },
];

/** The fees of a client's first plan. Frozen, each rule too: copy them to build a plan (see defaultPlanValues). */
export const DEFAULT_FEES: PlanFee[] = Object.freeze(DEFAULT_FEE_RULES.map((f) => Object.freeze(f))) as PlanFee[];

/** 1.99 % a month. */
export const DEFAULT_PREPAYMENT_MONTHLY_RATE = 199;
export const DEFAULT_PLAN_NAME = 'Default';

/** The most installments a charge accepts (the payments service's limit): a plan covers credit from 1 up to it. */
export const MAX_INSTALLMENTS = 24;

/** The installment counts a plan must price, by payment type: credit 1..24; the others are paid at once. */
export function installmentsAccepted(paymentType: PaymentType): number {
  return paymentType === 'credit' ? MAX_INSTALLMENTS : 1;
}
export const MAX_BASIS_POINTS = 10_000;
export const MAX_FIXED_AMOUNT = 1_000_000_00;
export const MAX_SETTLEMENT_DAYS = 365;
export const MAX_PLAN_NAME_LENGTH = 100;

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * A plan's fee list, checked rule by rule; one validation error names every bad field (`fees.0.percentage`...):
 * - paymentType is one of PAYMENT_TYPES;
 * - installments from 1 up to 24, from ≤ to; debit, Pix, boleto and voucher are paid at once, so only 1–1;
 * - percentage an integer of basis points 0..10000; fixedAmount an integer 0..1 000 000,00;
 * - the ranges of one payment type do not overlap (the later rule is named: 'overlaps fees.N').
 * The result keeps the input order and only the known fields.
 */
export function parsePlanFees(fees: unknown[], field = 'fees'): PlanFee[] {
  const details: FieldViolation[] = [];
  const parsed: Array<{ index: number; fee: PlanFee }> = [];
  fees.forEach((raw, index) => {
    const at = `${field}.${index}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      details.push({ field: at, message: 'must be an object' });
      return;
    }
    const f = raw as Record<string, unknown>;
    const before = details.length;
    const paymentType = f.paymentType;
    if (!isPaymentType(paymentType)) details.push({ field: `${at}.paymentType`, message: `must be one of ${PAYMENT_TYPES.join(', ')}` });
    const onlyOne = isPaymentType(paymentType) && paymentType !== 'credit';
    const from = f.installmentsFrom;
    const to = f.installmentsTo;
    if (!isIntegerIn(from, 1, MAX_INSTALLMENTS)) {
      details.push({ field: `${at}.installmentsFrom`, message: `must be an integer between 1 and ${MAX_INSTALLMENTS}` });
    } else if (onlyOne && from !== 1) {
      details.push({ field: `${at}.installmentsFrom`, message: `must be 1 for ${String(paymentType)}` });
    }
    if (!isIntegerIn(to, 1, MAX_INSTALLMENTS)) {
      details.push({ field: `${at}.installmentsTo`, message: `must be an integer between 1 and ${MAX_INSTALLMENTS}` });
    } else if (onlyOne && to !== 1) {
      details.push({ field: `${at}.installmentsTo`, message: `must be 1 for ${String(paymentType)}` });
    } else if (typeof from === 'number' && Number.isInteger(from) && to < from) {
      details.push({ field: `${at}.installmentsTo`, message: 'must not be less than installmentsFrom' });
    }
    if (!isIntegerIn(f.percentage, 0, MAX_BASIS_POINTS)) {
      details.push({ field: `${at}.percentage`, message: `must be an integer of basis points between 0 and ${MAX_BASIS_POINTS}` });
    }
    if (!isIntegerIn(f.fixedAmount, 0, MAX_FIXED_AMOUNT)) {
      details.push({ field: `${at}.fixedAmount`, message: `must be an integer between 0 and ${MAX_FIXED_AMOUNT}` });
    }
    if (details.length > before) return;
    parsed.push({
      index,
      fee: {
        paymentType: paymentType as PaymentType,
        installmentsFrom: from as number,
        installmentsTo: to as number,
        percentage: f.percentage as number,
        fixedAmount: f.fixedAmount as number,
      },
    });
  });
  parsed.forEach(({ index, fee }, i) => {
    const earlier = parsed
      .slice(0, i)
      .find((e) => e.fee.paymentType === fee.paymentType && e.fee.installmentsFrom <= fee.installmentsTo && fee.installmentsFrom <= e.fee.installmentsTo);
    if (earlier) details.push({ field: `${field}.${index}`, message: `overlaps ${field}.${earlier.index}` });
  });
  if (details.length > 0) throw errors.validation(`Invalid ${field}`, details);
  return parsed.map((p) => p.fee);
}

/** A run of installment counts of a payment type that no fee of a plan covers. */
export interface FeeGap {
  paymentType: PaymentType;
  installmentsFrom: number;
  installmentsTo: number;
}

/**
 * What a fee table leaves uncovered: for each payment type (in PAYMENT_TYPES order), the runs of installment counts
 * the platform accepts (installmentsAccepted) that no rule covers, ascending.
 */
export function planFeeGaps(fees: readonly PlanFee[]): FeeGap[] {
  const gaps: FeeGap[] = [];
  for (const paymentType of PAYMENT_TYPES) {
    let open: FeeGap | undefined;
    for (let n = 1; n <= installmentsAccepted(paymentType); n += 1) {
      const covered = fees.some((f) => f.paymentType === paymentType && f.installmentsFrom <= n && n <= f.installmentsTo);
      if (covered) {
        open = undefined;
      } else if (open) {
        open.installmentsTo = n;
      } else {
        open = { paymentType, installmentsFrom: n, installmentsTo: n };
        gaps.push(open);
      }
    }
  }
  return gaps;
}

function describeCount(from: number, to: number): string {
  if (from !== to) return `${from} to ${to} installments`;
  return from === 1 ? '1 installment' : `${from} installments`;
}

/**
 * A plan's whole fee table: each rule as parsePlanFees checks it, and together they price every installment count the
 * platform accepts (a charge no rule covered would settle with no fee). One validation error, a detail per gap:
 * `{field: 'fees', message: 'no fee covers credit in 13 to 24 installments'}`.
 */
export function parsePlanFeeTable(fees: unknown[], field = 'fees'): PlanFee[] {
  const parsed = parsePlanFees(fees, field);
  const gaps = planFeeGaps(parsed);
  if (gaps.length > 0) {
    const details = gaps.map((g) => ({ field, message: `no fee covers ${g.paymentType} in ${describeCount(g.installmentsFrom, g.installmentsTo)}` }));
    throw errors.validation(`The ${field} leave installment counts without a fee: ${details.map((d) => d.message.replace('no fee covers ', '')).join('; ')}`, details);
  }
  return parsed;
}

/** The settlement days of a plan: `base` with each given value replaced; each an integer 0..365. */
export function parseSettlementDays(
  input: Partial<Record<PaymentType, number | undefined>>,
  base: SettlementDays,
  field = 'settlementDays',
): SettlementDays {
  const result: SettlementDays = { ...base };
  const details: FieldViolation[] = [];
  for (const type of PAYMENT_TYPES) {
    const value = input[type];
    if (value === undefined || value === null) continue;
    if (!isIntegerIn(value, 0, MAX_SETTLEMENT_DAYS)) {
      details.push({ field: `${field}.${type}`, message: `must be an integer between 0 and ${MAX_SETTLEMENT_DAYS}` });
    } else {
      result[type] = value;
    }
  }
  if (details.length > 0) throw errors.validation(`Invalid ${field}`, details);
  return result;
}

/** A monthly rate in basis points: an integer 0..10000. */
export function parseMonthlyRate(value: number, field = 'prepaymentMonthlyRate'): number {
  if (!isIntegerIn(value, 0, MAX_BASIS_POINTS)) {
    throw errors.validation(`${field} must be an integer of basis points between 0 and ${MAX_BASIS_POINTS}`, [
      { field, message: `must be an integer between 0 and ${MAX_BASIS_POINTS}` },
    ]);
  }
  return value;
}

/** A plan's name: trimmed, 1..100 characters. */
export function parsePlanName(value: string): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (trimmed.length === 0) throw errors.validation('name must not be empty', [{ field: 'name', message: 'must not be empty' }]);
  if (trimmed.length > MAX_PLAN_NAME_LENGTH) {
    throw errors.validation(`name must be at most ${MAX_PLAN_NAME_LENGTH} characters`, [
      { field: 'name', message: `must be at most ${MAX_PLAN_NAME_LENGTH} characters` },
    ]);
  }
  return trimmed;
}

/** The fee rule of a plan for a payment type and a number of installments, if the plan has one. */
export function feeRuleFor(plan: Pick<Plan, 'fees'>, paymentType: PaymentType, installments: number): PlanFee | undefined {
  return plan.fees.find((f) => f.paymentType === paymentType && f.installmentsFrom <= installments && installments <= f.installmentsTo);
}

/**
 * The fee on `gross`: floor(gross × percentage / 10000) + fixedAmount of the matching rule, never more than the gross
 * itself (a receiver never owes a fee beyond what it receives). A plan without a rule for the payment type and
 * installments is an error, never a fee of 0: plans are refused with a gap (parsePlanFeeTable) and stored ones were
 * completed by migration 002, so this only fails loudly on a broken plan.
 *
 * feeFor(default plan, 'credit', 3, 7000) = floor(7000 × 349 / 10000) = 244
 */
export function feeFor(plan: Pick<Plan, 'fees'>, paymentType: PaymentType, installments: number, gross: number): number {
  if (!Number.isSafeInteger(gross) || gross < 0) throw new Error(`gross must be a non-negative integer, got ${gross}`);
  const rule = feeRuleFor(plan, paymentType, installments);
  if (!rule) throw new Error(`no fee of the plan covers ${paymentType} in ${describeCount(installments, installments)}`);
  const fee = Number((BigInt(gross) * BigInt(rule.percentage)) / BigInt(MAX_BASIS_POINTS)) + rule.fixedAmount;
  return Math.min(fee, gross);
}

/** The values of a new client's default plan. */
export function defaultPlanValues(): Pick<Plan, 'name' | 'isDefault' | 'fees' | 'settlementDays' | 'prepaymentMonthlyRate'> {
  return {
    name: DEFAULT_PLAN_NAME,
    isDefault: true,
    fees: DEFAULT_FEES.map((f) => ({ ...f })),
    settlementDays: { ...DEFAULT_SETTLEMENT_DAYS },
    prepaymentMonthlyRate: DEFAULT_PREPAYMENT_MONTHLY_RATE,
  };
}
