import fc from 'fast-check';
import { minorUnits, type MinorUnits } from '@platform/api-model';
import { allocate, splitEvenly, sum } from '../../src/domain/money';

describe('splitEvenly: equal shares, the leftover on the first', () => {
  it.each([
    [100, 3, [34, 33, 33]],
    [10000, 3, [3334, 3333, 3333]],
    [7000, 3, [2334, 2333, 2333]],
    [244, 3, [82, 81, 81]],
    [5, 7, [5, 0, 0, 0, 0, 0, 0]],
    [0, 4, [0, 0, 0, 0]],
    [9, 1, [9]],
    [12, 12, Array(12).fill(1)],
  ])('splitEvenly(%d, %d) = %j', (total, parts, expected) => {
    expect(splitEvenly(minorUnits(total), parts)).toEqual(expected);
  });

  it.each([
    [-1, 2],
    [1.5, 2],
    [10, 0],
    [10, 1.5],
    [10, -3],
  ])('refuses splitEvenly(%d, %d)', (total, parts) => {
    // Past the type on purpose: the split checks its input at run time too.
    expect(() => splitEvenly(total as MinorUnits, parts)).toThrow(Error);
  });
});

describe('allocate: largest remainder, ties to the lower index', () => {
  it.each([
    [100, [1, 1, 1], [34, 33, 33]],
    [10, [7, 3], [7, 3]],
    [10000, [7000, 3000, 0], [7000, 3000, 0]],
    [5, [0, 0], [5, 0]],
    [0, [3, 4], [0, 0]],
    // exact shares 3.33.., 3.33.., 3.33..: one leftover unit to index 0
    [10, [1, 1, 1], [4, 3, 3]],
    // exact shares 1.5, 1.5, 1: remainders tie, index 0 wins the single leftover
    [4, [3, 3, 2], [2, 1, 1]],
    // exact shares 0.4, 0.6: the larger remainder wins even at the higher index
    [1, [2, 3], [0, 1]],
    [1000, [0, 5, 0], [0, 1000, 0]],
  ])('allocate(%d, %j) = %j', (total, weights, expected) => {
    expect(allocate(minorUnits(total), weights)).toEqual(expected);
  });

  it('stays exact when total × weight passes 2^53', () => {
    const shares = allocate(minorUnits(1_000_000_000), [9_999_999_999_999, 1]);
    expect(sum(shares)).toBe(1_000_000_000);
    expect(shares).toEqual([1_000_000_000, 0]);
  });

  it.each([
    [10, []],
    [-1, [1]],
    [10, [-1, 2]],
    [10, [0.5, 2]],
  ])('refuses allocate(%d, %j)', (total, weights) => {
    expect(() => allocate(total as MinorUnits, weights)).toThrow(Error);
  });

  it('is handed amounts that went through minorUnits, which refuses what is no whole number of minor units', () => {
    expect(() => minorUnits(1.5)).toThrow(/whole number of minor units/);
    expect(() => minorUnits(Number.NaN)).toThrow(RangeError);
    expect(() => minorUnits(2 ** 53)).toThrow(RangeError);
    expect(minorUnits(-250)).toBe(-250);
  });

  it('adds up exactly and each share is within one unit of its exact value (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.array(fc.integer({ min: 0, max: 10_000_000_000 }), { minLength: 1, maxLength: 8 }), (total, weights) => {
        const shares = allocate(minorUnits(total), weights);
        expect(shares).toHaveLength(weights.length);
        expect(sum(shares)).toBe(total);
        const w = weights.reduce((a, x) => a + BigInt(x), 0n);
        shares.forEach((s, i) => {
          expect(s).toBeGreaterThanOrEqual(0);
          if (w === 0n) return;
          const exactTimesW = BigInt(total) * BigInt(weights[i]!);
          // |s − exact| < 1  ⇔  |s·W − total·w_i| < W
          const diff = BigInt(s) * w - exactTimesW;
          expect(diff < w && -diff < w).toBe(true);
        });
      }),
      { numRuns: 300, seed: 20260501 },
    );
  });

  it('splitEvenly adds up and differs by at most the leftover (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 1, max: 24 }), (total, parts) => {
        const shares = splitEvenly(minorUnits(total), parts);
        expect(sum(shares)).toBe(total);
        expect(new Set(shares.slice(1)).size).toBeLessThanOrEqual(1);
        expect(shares[0]! - (shares[1] ?? shares[0]!)).toBeLessThan(parts);
      }),
      { numRuns: 300, seed: 20260502 },
    );
  });
});
