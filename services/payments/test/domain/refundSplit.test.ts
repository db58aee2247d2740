import { AppError } from '@platform/kit';
import type { SplitRule } from '../../src/modules/charges/domain/charge';
import { checkRefundSplitHeld, heldBySeller } from '../../src/modules/charges/domain/refundSplit';

const byAmount = (sellerId: string, amount: number): SplitRule => ({ sellerId, amount, processingFee: false, chargeRemainderFee: false, liable: false });
const byPercentage = (sellerId: string, percentage: number): SplitRule => ({ sellerId, percentage, processingFee: false, chargeRemainderFee: false, liable: false });

describe('what each split receiver still holds of a charge', () => {
  it('shares the capture by the split rules, a partial capture shrinking every share alike', () => {
    const charge = { amount: 10_000, capturedAmount: 10_000, refundedAmount: 0, splitRules: [byAmount('a', 7_000), byAmount('b', 3_000)] };
    expect(heldBySeller(charge, [])).toEqual(new Map([['a', 7_000], ['b', 3_000]]));
    expect(heldBySeller({ ...charge, capturedAmount: 5_001 }, [])).toEqual(new Map([['a', 3_501], ['b', 1_500]]));
    const thirds = { amount: 100, capturedAmount: 100, refundedAmount: 0, splitRules: [byPercentage('a', 3_333), byPercentage('b', 3_333), byPercentage('c', 3_334)] };
    expect([...heldBySeller(thirds, []).values()].reduce((s, v) => s + v, 0)).toBe(100);
  });

  it('takes earlier refunds: by their own split, pro rata without one, and a refunded amount no request explains last', () => {
    const charge = { amount: 10_000, capturedAmount: 10_000, refundedAmount: 3_000, splitRules: [byAmount('a', 7_000), byAmount('b', 3_000)] };
    const refunds = [
      { amount: 2_000, splitRules: [{ sellerId: 'B', amount: 2_000 }] },
      { amount: 800, splitRules: null },
    ];
    // b: 3,000 − 2,000 = 1,000; then 800 shared 7,000 : 1,000 (700, 100); then 200 unexplained shared 6,300 : 900 (175, 25).
    expect(heldBySeller(charge, refunds)).toEqual(new Map([['a', 6_125], ['b', 875]]));
  });

  it('refuses a split taking more than a receiver holds, naming it, with its business code', () => {
    const charge = { amount: 10_000, capturedAmount: 10_000, refundedAmount: 0, splitRules: [byAmount('a', 7_000), byAmount('b', 3_000)] };
    expect(() => checkRefundSplitHeld(charge, [], [{ sellerId: 'b', amount: 3_000 }])).not.toThrow();
    let error: unknown;
    try {
      checkRefundSplitHeld(charge, [], [{ sellerId: 'b', amount: 2_000 }, { sellerId: 'B', amount: 1_001 }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'refund_split_exceeds_receiver_share' });
    expect((error as AppError).message).toBe("The refund's split takes 3001 from seller b, which holds 3000 of this charge after its earlier refunds");
  });
});
