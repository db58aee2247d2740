import { errors } from '@platform/kit';
import { BASIS_POINTS, type SellerAmount, type SplitRule } from './charge';

/** What a refund's own split may take: no more from a receiver than it still holds of the charge. */

/** Splits `total` in proportion to integer weights: floors, then one unit each to the largest remainders (ties to the earlier). */
function shareOut(total: number, weights: readonly bigint[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0n);
  if (sum === 0n) return weights.map(() => 0);
  const big = BigInt(total);
  const shares = weights.map((w) => (big * w) / sum);
  const remainders = weights.map((w) => (big * w) % sum);
  let leftover = big - shares.reduce((a, s) => a + s, 0n);
  const order = weights.map((_, i) => i).sort((a, b) => (remainders[b]! > remainders[a]! ? 1 : remainders[b]! < remainders[a]! ? -1 : a - b));
  for (const i of order) {
    if (leftover === 0n) break;
    shares[i] = shares[i]! + 1n;
    leftover -= 1n;
  }
  return shares.map(Number);
}

/**
 * What each split receiver still holds of a captured charge, as the payouts ledger shares it: the captured amount
 * divided by the charge's split rules (a percentage weighs percentage × amount, an amount weighs amount × 10000, so a
 * partial capture shrinks every share alike; largest remainders), less what each refund took, in order: its own split
 * when it has one, else its amount shared in proportion to what each held then. `refunds` are the charge's refunds,
 * done or being asked; a refunded amount they do not explain (a provider said the charge was refunded) is shared last,
 * in proportion. Never below 0. Seller ids in lower case.
 */
export function heldBySeller(
  charge: { amount: number; capturedAmount: number; refundedAmount: number; splitRules: readonly SplitRule[] },
  refunds: ReadonlyArray<{ amount: number; splitRules: readonly SellerAmount[] | null }>,
): Map<string, number> {
  const sellers: string[] = [];
  const weights = new Map<string, bigint>();
  for (const rule of charge.splitRules) {
    const sellerId = rule.sellerId.toLowerCase();
    const weight = rule.percentage !== undefined ? BigInt(rule.percentage) * BigInt(charge.amount) : BigInt(rule.amount ?? 0) * BigInt(BASIS_POINTS);
    if (!weights.has(sellerId)) sellers.push(sellerId);
    weights.set(sellerId, (weights.get(sellerId) ?? 0n) + weight);
  }
  const shares = shareOut(charge.capturedAmount, sellers.map((s) => weights.get(s)!));
  const held = new Map(sellers.map((s, i) => [s, shares[i]!]));
  const proRata = (amount: number): void => {
    const taken = shareOut(amount, sellers.map((s) => BigInt(held.get(s)!)));
    sellers.forEach((s, i) => held.set(s, Math.max(0, held.get(s)! - taken[i]!)));
  };
  let explained = 0;
  for (const refund of refunds) {
    explained += refund.amount;
    if (refund.splitRules && refund.splitRules.length > 0) {
      for (const part of refund.splitRules) {
        const sellerId = part.sellerId.toLowerCase();
        if (held.has(sellerId)) held.set(sellerId, Math.max(0, held.get(sellerId)! - part.amount));
      }
    } else {
      proRata(refund.amount);
    }
  }
  if (charge.refundedAmount > explained) proRata(charge.refundedAmount - explained);
  return held;
}

export const REFUND_SPLIT_EXCEEDS_HELD = 'refund_split_exceeds_receiver_share';

/**
 * A refund's split takes from each receiver at most what it still holds (heldBySeller): 422
 * `refund_split_exceeds_receiver_share` naming the first receiver asked for more, before anything is written.
 */
export function checkRefundSplitHeld(
  charge: { amount: number; capturedAmount: number; refundedAmount: number; splitRules: readonly SplitRule[] },
  earlierRefunds: ReadonlyArray<{ amount: number; splitRules: readonly SellerAmount[] | null }>,
  refundSplit: readonly SellerAmount[],
): void {
  const held = heldBySeller(charge, earlierRefunds);
  const asked = new Map<string, number>();
  for (const part of refundSplit) asked.set(part.sellerId.toLowerCase(), (asked.get(part.sellerId.toLowerCase()) ?? 0) + part.amount);
  for (const [sellerId, amount] of asked) {
    const has = held.get(sellerId) ?? 0;
    if (amount > has) {
      throw errors.businessRule(
        REFUND_SPLIT_EXCEEDS_HELD,
        `The refund's split takes ${amount} from seller ${sellerId}, which holds ${has} of this charge after its earlier refunds`,
      );
    }
  }
}
