import { BusinessCalendar, brasiliaInstant } from '../../src/domain/calendar';
import { sum } from '../../src/domain/money';
import { DEFAULT_FEES, DEFAULT_SETTLEMENT_DAYS, type Plan } from '../../src/domain/plan';
import { buildReceivables, splitCapture, type CapturedCharge } from '../../src/domain/receivables';

const calendar = new BusinessCalendar();
const defaultPlan: Pick<Plan, 'fees' | 'settlementDays'> = { fees: DEFAULT_FEES, settlementDays: DEFAULT_SETTLEMENT_DAYS };
const onDefaultPlan = (): Pick<Plan, 'fees' | 'settlementDays'> => defaultPlan;

/** Captured on Tuesday 2026-05-05 at 12:00 in Brasília. */
const capturedAt = brasiliaInstant('2026-05-05', 12, 0);

function charge(over: Partial<CapturedCharge> = {}): CapturedCharge {
  return { chargeId: 'ch_1', paymentType: 'credit', installments: 1, amount: 10000, capturedAmount: 10000, splitRules: [], capturedAt, ...over };
}

describe('the worked example: 10,000 in 3 credit installments, split 7,000 / 3,000 by amount', () => {
  const receivables = buildReceivables(
    charge({ installments: 3, splitRules: [{ sellerId: 'seller-a', amount: 7000 }, { sellerId: 'seller-b', amount: 3000 }] }),
    onDefaultPlan,
    calendar,
  );

  it('gives each seller one receivable per installment, with the default plan fee for 2–6 installments (349 bp)', () => {
    // seller A: share 7,000, fee floor(7000 × 349 / 10000) = 244; seller B: share 3,000, fee floor(104.7) = 104.
    // Gross and fee split evenly, the leftover on installment 1. Dates: D+30, D+60, D+90 from 2026-05-05:
    // 2026-06-04 is Corpus Christi → 06-05; 2026-07-04 is a Saturday → 07-06; 2026-08-03 is a Monday.
    expect(receivables.map((r) => [r.receiver, r.installment, r.gross, r.fee, r.net, r.settlementDate])).toEqual([
      ['seller-a', 1, 2334, 82, 2252, '2026-06-05'],
      ['seller-a', 2, 2333, 81, 2252, '2026-07-06'],
      ['seller-a', 3, 2333, 81, 2252, '2026-08-03'],
      ['seller-b', 1, 1000, 36, 964, '2026-06-05'],
      ['seller-b', 2, 1000, 34, 966, '2026-07-06'],
      ['seller-b', 3, 1000, 34, 966, '2026-08-03'],
    ]);
    expect(receivables.every((r) => r.totalInstallments === 3 && r.paymentType === 'credit')).toBe(true);
  });

  it('adds up to the charge: 10,000 gross = 348 fees + 9,652 net', () => {
    expect(sum(receivables.map((r) => r.gross))).toBe(10000);
    expect(sum(receivables.map((r) => r.fee))).toBe(348);
    expect(sum(receivables.map((r) => r.net))).toBe(9652);
  });
});

describe('splitting a capture among receivers', () => {
  it('gives everything to the main account without rules', () => {
    expect(splitCapture(charge())).toEqual([{ receiver: null, share: 10000 }]);
  });

  it('weighs percentage rules on the captured amount and leaves the rest to the main account', () => {
    expect(splitCapture(charge({ splitRules: [{ sellerId: 's1', percentage: 2500 }, { sellerId: 's2', percentage: 5000 }] }))).toEqual([
      { receiver: 's1', share: 2500 },
      { receiver: 's2', share: 5000 },
      { receiver: null, share: 2500 },
    ]);
  });

  it('shrinks amount rules alike on a partial capture', () => {
    // 6,000 of a 10,000 charge captured: a rule of 5,000 gets 3,000, one of 2,500 gets 1,500, the rest 1,500.
    expect(splitCapture(charge({ capturedAmount: 6000, splitRules: [{ sellerId: 's1', amount: 5000 }, { sellerId: 's2', amount: 2500 }] }))).toEqual([
      { receiver: 's1', share: 3000 },
      { receiver: 's2', share: 1500 },
      { receiver: null, share: 1500 },
    ]);
  });

  it('mixes percentage and amount rules and rounds by largest remainder', () => {
    // 1,000 captured of 1,000: 33.33 % → 333.3; amount 333 → 333; the rest 333.7 → 334.
    expect(splitCapture(charge({ amount: 1000, capturedAmount: 1000, splitRules: [{ sellerId: 's1', percentage: 3333 }, { sellerId: 's2', amount: 333 }] }))).toEqual([
      { receiver: 's1', share: 333 },
      { receiver: 's2', share: 333 },
      { receiver: null, share: 334 },
    ]);
  });

  it('leaves out receivers with a share of 0 and merges a seller named twice', () => {
    expect(
      splitCapture(
        charge({
          splitRules: [
            { sellerId: 's1', percentage: 10000 },
            { sellerId: 's2', percentage: 0 },
            { sellerId: 's3', amount: null, percentage: null },
          ],
        }),
      ),
    ).toEqual([{ receiver: 's1', share: 10000 }]);
    expect(splitCapture(charge({ splitRules: [{ sellerId: 's1', amount: 3000 }, { sellerId: 's2', amount: 1000 }, { sellerId: 's1', percentage: 2000 }] }))).toEqual([
      { receiver: 's1', share: 5000 },
      { receiver: 's2', share: 1000 },
      { receiver: null, share: 4000 },
    ]);
  });

  it('scales down rules that ask for more than the charge', () => {
    expect(splitCapture(charge({ splitRules: [{ sellerId: 's1', amount: 15000 }, { sellerId: 's2', amount: 5000 }] }))).toEqual([
      { receiver: 's1', share: 7500 },
      { receiver: 's2', share: 2500 },
    ]);
  });
});

describe('receivables of a capture', () => {
  it('gives non-credit types one receivable at D+settlementDays, fee for 1 installment', () => {
    const debit = buildReceivables(charge({ paymentType: 'debit', installments: 3 }), onDefaultPlan, calendar);
    expect(debit).toEqual([
      { receiver: null, installment: 1, totalInstallments: 1, paymentType: 'debit', gross: 10000, fee: 199, net: 9801, settlementDate: '2026-05-06' },
    ]);
    const voucher = buildReceivables(charge({ paymentType: 'voucher' }), onDefaultPlan, calendar);
    expect(voucher.map((r) => [r.fee, r.settlementDate])).toEqual([[499, '2026-06-05']]);
    const boleto = buildReceivables(charge({ paymentType: 'boleto', amount: 200, capturedAmount: 200 }), onDefaultPlan, calendar);
    expect(boleto.map((r) => [r.gross, r.fee, r.net])).toEqual([[200, 200, 0]]);
  });

  it('dates by the capture day in Brasília, not in UTC', () => {
    // 2026-11-19 22:30 in Brasília is already the 20th in UTC; Pix at D+1 → 2026-11-20 (holiday) → 2026-11-23.
    const late = buildReceivables(charge({ paymentType: 'pix', capturedAt: new Date('2026-11-20T01:30:00Z') }), onDefaultPlan, calendar);
    expect(late[0]!.settlementDate).toBe('2026-11-23');
    // Carnival: a debit captured on Friday 2026-02-13 settles on Ash Wednesday.
    const carnival = buildReceivables(charge({ paymentType: 'debit', capturedAt: brasiliaInstant('2026-02-13', 10, 0) }), onDefaultPlan, calendar);
    expect(carnival[0]!.settlementDate).toBe('2026-02-18');
  });

  it("uses each receiver's own plan", () => {
    const gold: Pick<Plan, 'fees' | 'settlementDays'> = {
      fees: [{ paymentType: 'credit', installmentsFrom: 1, installmentsTo: 12, percentage: 100, fixedAmount: 10 }],
      settlementDays: { ...DEFAULT_SETTLEMENT_DAYS, credit: 2 },
    };
    const receivables = buildReceivables(charge({ installments: 2, splitRules: [{ sellerId: 'gold', percentage: 5000 }] }), (r) => (r === 'gold' ? gold : defaultPlan), calendar);
    // gold: 5,000 → fee 50 + 10 = 60, D+2 and D+4; main: 5,000 → fee floor(174.5) = 174, D+30 and D+60.
    expect(receivables.map((r) => [r.receiver, r.installment, r.gross, r.fee, r.net, r.settlementDate])).toEqual([
      ['gold', 1, 2500, 30, 2470, '2026-05-07'],
      ['gold', 2, 2500, 30, 2470, '2026-05-11'],
      [null, 1, 2500, 87, 2413, '2026-06-05'],
      [null, 2, 2500, 87, 2413, '2026-07-06'],
    ]);
  });

  it('keeps every installment net ≥ 0 when the fee is close to the gross', () => {
    // share 3 in 3 installments, fee 2 (fixed): evenly the fee would be [2, 0, 0] against gross [1, 1, 1];
    // the excess moves on so that each installment's fee stays within its gross.
    const steep: Pick<Plan, 'fees' | 'settlementDays'> = {
      fees: [{ paymentType: 'credit', installmentsFrom: 1, installmentsTo: 12, percentage: 0, fixedAmount: 2 }],
      settlementDays: DEFAULT_SETTLEMENT_DAYS,
    };
    const receivables = buildReceivables(charge({ amount: 3, capturedAmount: 3, installments: 3 }), () => steep, calendar);
    expect(receivables.map((r) => [r.gross, r.fee, r.net])).toEqual([
      [1, 1, 0],
      [1, 1, 0],
      [1, 0, 1],
    ]);
  });

  it('leaves out installments of 0 when a share has fewer minor units than installments', () => {
    const receivables = buildReceivables(charge({ amount: 2, capturedAmount: 2, installments: 3 }), onDefaultPlan, calendar);
    expect(receivables.map((r) => [r.installment, r.totalInstallments, r.gross, r.fee, r.net])).toEqual([[1, 3, 2, 0, 2]]);
  });

  it('gives nothing for a capture of 0', () => {
    expect(buildReceivables(charge({ capturedAmount: 0 }), onDefaultPlan, calendar)).toEqual([]);
  });
});
