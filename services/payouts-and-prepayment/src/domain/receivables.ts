import { addDays, brasiliaDate, type BusinessCalendar } from './calendar';
import { minorUnits } from '@platform/api-model';
import { allocate, splitEvenly } from './money';
import { feeFor, MAX_BASIS_POINTS, type PaymentType, type Plan } from './plan';

/** A split rule of a charge: a seller's part, either in basis points of the charge or as an amount of it. */
export interface SplitRuleInput {
  sellerId: string;
  percentage?: number | null;
  amount?: number | null;
}

/** A captured charge of the own provider, as the ledger sees it. */
export interface CapturedCharge {
  chargeId: string;
  paymentType: PaymentType;
  installments: number;
  /** The charge's original amount: the basis of split rules given as an amount. */
  amount: number;
  capturedAmount: number;
  splitRules: SplitRuleInput[];
  capturedAt: Date;
}

/** One receivable to be: what one receiver gets from one installment of a charge, and when. */
export interface ReceivableDraft {
  /** The seller's id, or null: the client's main account. */
  receiver: string | null;
  installment: number;
  totalInstallments: number;
  paymentType: PaymentType;
  gross: number;
  fee: number;
  net: number;
  settlementDate: string;
}

/**
 * How the captured amount is shared among receivers, in the order of the split rules (a seller named twice is one
 * receiver, at its first place), the main account (null) last. Rules weigh, in a common scale:
 * - `percentage` (basis points of the charge): percentage × capturedAmount / 10000;
 * - `amount`: amount × capturedAmount / amount of the charge (a partial capture shrinks every part alike).
 * What the rules leave over goes to the main account. Rules that together ask for more than the charge are scaled
 * down pro rata and the main account gets nothing. The shares come from `allocate`, so they add up to the
 * captured amount exactly. Receivers with a share of 0 are left out.
 */
export function splitCapture(charge: Pick<CapturedCharge, 'amount' | 'capturedAmount' | 'splitRules'>): Array<{ receiver: string | null; share: number }> {
  const { amount, capturedAmount } = charge;
  if (!Number.isSafeInteger(amount) || amount < 1) throw new Error(`charge amount must be a positive integer, got ${amount}`);
  if (!Number.isSafeInteger(capturedAmount) || capturedAmount < 0) throw new Error(`captured amount must be a non-negative integer, got ${capturedAmount}`);
  // Every weight is multiplied by 10000 × amount / capturedAmount, which keeps them integers:
  // percentage → percentage × amount; amount → amount × 10000; the whole charge → 10000 × amount.
  const whole = BigInt(MAX_BASIS_POINTS) * BigInt(amount);
  const receivers: Array<string | null> = [];
  const weights = new Map<string | null, bigint>();
  for (const rule of charge.splitRules) {
    let weight = 0n;
    if (rule.percentage !== undefined && rule.percentage !== null) {
      if (!Number.isSafeInteger(rule.percentage) || rule.percentage < 0) throw new Error(`split percentage must be a non-negative integer, got ${rule.percentage}`);
      weight = BigInt(rule.percentage) * BigInt(amount);
    } else if (rule.amount !== undefined && rule.amount !== null) {
      if (!Number.isSafeInteger(rule.amount) || rule.amount < 0) throw new Error(`split amount must be a non-negative integer, got ${rule.amount}`);
      weight = BigInt(rule.amount) * BigInt(MAX_BASIS_POINTS);
    }
    if (!weights.has(rule.sellerId)) receivers.push(rule.sellerId);
    weights.set(rule.sellerId, (weights.get(rule.sellerId) ?? 0n) + weight);
  }
  const ruled = [...weights.values()].reduce((a, w) => a + w, 0n);
  receivers.push(null);
  weights.set(null, ruled < whole ? whole - ruled : 0n);
  const scaled = scaleWeights(receivers.map((r) => weights.get(r)!));
  const shares = allocate(minorUnits(capturedAmount), scaled);
  return receivers.map((receiver, i) => ({ receiver, share: shares[i]! })).filter((s) => s.share > 0);
}

/** Exact integer weights as numbers for `allocate`; when a total would pass 2^53 they are divided down alike. */
function scaleWeights(weights: bigint[]): number[] {
  const limit = BigInt(Number.MAX_SAFE_INTEGER);
  const total = weights.reduce((a, w) => a + w, 0n);
  if (total <= limit) return weights.map(Number);
  const divisor = total / limit + 1n;
  return weights.map((w) => Number(w / divisor));
}

/**
 * Spreads a receiver's fee over its installments like the gross (`splitEvenly`, leftover on installment 1), but an
 * installment's fee never passes its gross: an excess (only possible when the fee is close to the gross) moves to
 * the next installments, which always have room because the whole fee is at most the whole gross.
 */
function spreadFee(fee: number, grosses: readonly number[]): number[] {
  const fees = splitEvenly(minorUnits(fee), grosses.length);
  let carry = 0;
  return fees.map((f, i) => {
    const want = f + carry;
    const taken = Math.min(want, grosses[i]!);
    carry = want - taken;
    return taken;
  });
}

/**
 * The receivables of a captured charge, one per receiver per installment.
 * - The captured amount is shared among receivers by `splitCapture` (no rules: all to the main account).
 * - Each receiver's fee is its plan's fee (`feeFor`) on its whole share, for the charge's number of installments
 *   (credit; every other type counts as 1).
 * - Credit in n installments gives n receivables per receiver: gross and fee each `splitEvenly`, leftovers on
 *   installment 1; every other type gives one receivable. net = gross − fee.
 * - Settlement date: the capture's date in Brasília plus settlementDays[type] calendar days (credit: times the
 *   installment number), moved to the next business day when it is not one.
 * Order: receivers in rule order (main account last), then installments ascending. An installment whose gross is
 * 0 (a share of fewer minor units than installments) has no receivable; the others keep their numbers.
 * Σ gross = capturedAmount; every net = gross − fee ≥ 0.
 */
export function buildReceivables(
  charge: CapturedCharge,
  planOf: (receiver: string | null) => Pick<Plan, 'fees' | 'settlementDays'>,
  calendar: BusinessCalendar,
): ReceivableDraft[] {
  const isCredit = charge.paymentType === 'credit';
  if (isCredit && (!Number.isSafeInteger(charge.installments) || charge.installments < 1)) {
    throw new Error(`installments must be a positive integer, got ${charge.installments}`);
  }
  const totalInstallments = isCredit ? charge.installments : 1;
  const captureDate = brasiliaDate(charge.capturedAt);
  const drafts: ReceivableDraft[] = [];
  for (const { receiver, share } of splitCapture(charge)) {
    const plan = planOf(receiver);
    const fee = feeFor(plan, charge.paymentType, totalInstallments, share);
    const grosses = splitEvenly(minorUnits(share), totalInstallments);
    const fees = spreadFee(fee, grosses);
    const days = plan.settlementDays[charge.paymentType];
    grosses.forEach((gross, i) => {
      const installment = i + 1;
      if (gross === 0) return;
      drafts.push({
        receiver,
        installment,
        totalInstallments,
        paymentType: charge.paymentType,
        gross,
        fee: fees[i]!,
        net: gross - fees[i]!,
        settlementDate: calendar.onOrAfter(addDays(captureDate, days * (isCredit ? installment : 1))),
      });
    });
  }
  return drafts;
}
