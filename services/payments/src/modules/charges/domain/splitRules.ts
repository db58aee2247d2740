import { BASIS_POINTS, type SellerAmount, type SplitRule } from './charge';

/** How a charge is shared between receivers: the shares as asked, checked, and the minor units each one gets. */

/**
 * The rules a split is checked by (percentage or amount, each seller once, adding up to the amount) are shared with
 * every other place a split is given (a payment link's): one definition, in the published language.
 */
export { parseSplitRules, splitAddsUp, type SplitRuleInput } from '@platform/api-model';

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
