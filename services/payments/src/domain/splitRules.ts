import type { FieldViolation } from '@platform/kit';
import { isUuid } from '@platform/kit';
import { BASIS_POINTS, type SellerAmount, type SplitRule } from './charge';

/** How a charge is shared between receivers: the shares as asked, checked, and the minor units each one gets. */

/** A split rule as asked: a share by percentage (basis points) or by amount. */
export interface SplitRuleInput {
  sellerId: string;
  percentage?: number | undefined;
  amount?: number | undefined;
  processingFee?: boolean | undefined;
  chargeRemainderFee?: boolean | undefined;
  liable?: boolean | undefined;
}

export function parseSplitRules(rules: SplitRuleInput[], amount: number, problems: FieldViolation[]): SplitRule[] {
  const parsed: SplitRule[] = [];
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
    } else if (hasPercentage && (!Number.isInteger(rule.percentage) || rule.percentage! < 1 || rule.percentage! > BASIS_POINTS)) {
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
export function splitAddsUp(rules: SplitRule[], amount: number): boolean {
  let fixed = 0n;
  let bps = 0n;
  for (const rule of rules) {
    if (rule.amount !== undefined) fixed += BigInt(rule.amount);
    if (rule.percentage !== undefined) bps += BigInt(rule.percentage);
  }
  const total = BigInt(amount);
  return fixed * BigInt(BASIS_POINTS) + total * bps === total * BigInt(BASIS_POINTS);
}

/**
 * The minor units each receiver gets. Percentage shares are rounded down and the cents lost to rounding go,
 * one each, to the shares with the largest remainders (ties to the earlier rule), so the parts add up exactly.
 */
export function splitAmounts(rules: SplitRule[], amount: number): SellerAmount[] {
  const total = BigInt(amount);
  const shares = rules.map((rule, index) => {
    if (rule.amount !== undefined) return { index, sellerId: rule.sellerId, amount: BigInt(rule.amount), remainder: -1n };
    const exact = total * BigInt(rule.percentage ?? 0);
    return { index, sellerId: rule.sellerId, amount: exact / BigInt(BASIS_POINTS), remainder: exact % BigInt(BASIS_POINTS) };
  });
  let missing = total - shares.reduce((sum, s) => sum + s.amount, 0n);
  const byRemainder = shares
    .filter((s) => s.remainder > 0n)
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const share of byRemainder) {
    if (missing <= 0n) break;
    share.amount += 1n;
    missing -= 1n;
  }
  return shares.map((s) => ({ sellerId: s.sellerId, amount: Number(s.amount) }));
}
