import { isUuid, type FieldViolation } from '@platform/kit';

/**
 * The rules of a split, the same wherever one is given (a charge, a payment link): each share by percentage (basis
 * points) or by amount, each seller once, and the shares adding up exactly to the amount.
 */

/** A whole amount in basis points. */
export const SPLIT_BASIS_POINTS = 10_000;

/** A split rule as asked. */
export interface SplitRuleInput {
  sellerId: string;
  percentage?: number | undefined;
  amount?: number | undefined;
  processingFee?: boolean | undefined;
  chargeRemainderFee?: boolean | undefined;
  liable?: boolean | undefined;
}

/** A split rule checked: the seller id in lower case, the flags set. */
export interface ParsedSplitRule {
  sellerId: string;
  /** Basis points of the amount; exclusive with amount. */
  percentage?: number;
  amount?: number;
  processingFee: boolean;
  chargeRemainderFee: boolean;
  liable: boolean;
}

/** Checks the rules against the amount they share, adding each problem (field `splitRules...`) to `problems`. */
export function parseSplitRules(rules: SplitRuleInput[], amount: number, problems: FieldViolation[]): ParsedSplitRule[] {
  const parsed: ParsedSplitRule[] = [];
  const sellers = new Set<string>();
  rules.forEach((rule, i) => {
    const field = `splitRules.${i}`;
    if (!isUuid(rule.sellerId ?? '')) problems.push({ field: `${field}.sellerId`, message: 'must be a UUID' });
    else if (sellers.has(rule.sellerId.toLowerCase())) problems.push({ field: `${field}.sellerId`, message: 'appears twice' });
    else sellers.add(rule.sellerId.toLowerCase());
    const hasPercentage = rule.percentage !== undefined;
    const hasAmount = rule.amount !== undefined;
    if (hasPercentage === hasAmount) {
      problems.push({ field, message: 'give either percentage (basis points) or amount' });
    } else if (hasPercentage && (!Number.isInteger(rule.percentage) || rule.percentage! < 1 || rule.percentage! > SPLIT_BASIS_POINTS)) {
      problems.push({ field: `${field}.percentage`, message: 'must be an integer from 1 to 10000 basis points' });
    } else if (hasAmount && (!Number.isSafeInteger(rule.amount) || rule.amount! <= 0)) {
      problems.push({ field: `${field}.amount`, message: 'must be a positive integer in minor units' });
    }
    parsed.push({
      sellerId: (rule.sellerId ?? '').toLowerCase(),
      ...(hasPercentage ? { percentage: rule.percentage } : {}),
      ...(hasAmount ? { amount: rule.amount } : {}),
      processingFee: rule.processingFee ?? false,
      chargeRemainderFee: rule.chargeRemainderFee ?? false,
      liable: rule.liable ?? false,
    });
  });
  if (parsed.length > 0 && problems.every((p) => !p.field.startsWith('splitRules')) && Number.isSafeInteger(amount) && amount > 0) {
    if (!splitAddsUp(parsed, amount)) problems.push({ field: 'splitRules', message: 'shares must add up to the charge amount' });
  }
  return parsed;
}

/** Exact, in integers: the amounts plus the percentages of the amount equal the amount. */
export function splitAddsUp(rules: ReadonlyArray<Pick<ParsedSplitRule, 'amount' | 'percentage'>>, amount: number): boolean {
  let fixed = 0n;
  let bps = 0n;
  for (const rule of rules) {
    if (rule.amount !== undefined) fixed += BigInt(rule.amount);
    if (rule.percentage !== undefined) bps += BigInt(rule.percentage);
  }
  const total = BigInt(amount);
  return fixed * BigInt(SPLIT_BASIS_POINTS) + total * bps === total * BigInt(SPLIT_BASIS_POINTS);
}
