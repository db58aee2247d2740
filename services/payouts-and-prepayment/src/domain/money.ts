import { minorUnits, type MinorUnits } from '@platform/api-model';

/**
 * Money is an integer number of minor units (`MinorUnits`). Every split of an amount adds up to that amount exactly:
 * no minor unit is created or lost by rounding.
 */

function assertAmount(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${what} must be a non-negative integer of minor units, got ${value}`);
}

/**
 * Splits `total` into `parts` equal shares, rounded down; the whole leftover goes to the FIRST share (the first
 * installment carries the rounding, as card schemes do).
 *
 * splitEvenly(100, 3) = [34, 33, 33]
 */
export function splitEvenly(total: MinorUnits, parts: number): MinorUnits[] {
  assertAmount(total, 'total');
  if (!Number.isSafeInteger(parts) || parts < 1) throw new Error(`parts must be an integer of at least 1, got ${parts}`);
  const share = minorUnits(Math.floor(total / parts));
  const shares = new Array<MinorUnits>(parts).fill(share);
  shares[0] = minorUnits(total - share * (parts - 1));
  return shares;
}

/**
 * Splits `total` in proportion to non-negative integer `weights` by the largest-remainder method: each index gets
 * the floor of its exact share, and the minor units left over go one each to the largest remainders (ties to the
 * lower index). When every weight is 0 the whole total goes to index 0. The shares add up to `total` exactly and
 * each differs from its exact share by less than one minor unit.
 *
 * allocate(100, [1, 1, 1]) = [34, 33, 33]; allocate(10, [7, 3]) = [7, 3]; allocate(5, [0, 0]) = [5, 0]
 */
export function allocate(total: MinorUnits, weights: readonly number[]): MinorUnits[] {
  assertAmount(total, 'total');
  if (weights.length === 0) throw new Error('allocate needs at least one weight');
  for (const w of weights) {
    if (!Number.isSafeInteger(w) || w < 0) throw new Error(`weights must be non-negative integers, got ${w}`);
  }
  const sum = weights.reduce((a, w) => a + BigInt(w), 0n);
  if (sum === 0n) return weights.map((_, i) => minorUnits(i === 0 ? total : 0));
  const big = BigInt(total);
  const shares = weights.map((w) => (big * BigInt(w)) / sum);
  const remainders = weights.map((w) => (big * BigInt(w)) % sum);
  let leftover = Number(big - shares.reduce((a, s) => a + s, 0n));
  const order = weights.map((_, i) => i).sort((a, b) => (remainders[b]! > remainders[a]! ? 1 : remainders[b]! < remainders[a]! ? -1 : a - b));
  for (const i of order) {
    if (leftover === 0) break;
    shares[i] = shares[i]! + 1n;
    leftover -= 1;
  }
  return shares.map((share) => minorUnits(Number(share)));
}

/** The sum of a list of amounts. */
export function sum(values: readonly number[]): number {
  return values.reduce((a, v) => a + v, 0);
}
