import { applyOffsets, planRefund, type OpenReceivable } from '../../src/domain/refunds';
import { fieldsOf } from './support';

/** The receivables of the worked example (10,000 in 3 credit installments, 7,000 / 3,000), none settled yet. */
function workedExample(): OpenReceivable[] {
  const rows: Array<[string, string, number, number, number, string]> = [
    ['a1', 'seller-a', 1, 2334, 82, '2026-06-05'],
    ['a2', 'seller-a', 2, 2333, 81, '2026-07-06'],
    ['a3', 'seller-a', 3, 2333, 81, '2026-08-03'],
    ['b1', 'seller-b', 1, 1000, 36, '2026-06-05'],
    ['b2', 'seller-b', 2, 1000, 34, '2026-07-06'],
    ['b3', 'seller-b', 3, 1000, 34, '2026-08-03'],
  ];
  return rows.map(([id, receiver, installment, gross, fee, settlementDate]) => ({ id, receiver, installment, gross, fee, net: gross - fee, settled: false, settlementDate }));
}

describe('planning a refund', () => {
  it('divides pro rata to gross and takes from the latest future receivable first', () => {
    // 1,000: seller A 700, seller B 300. A's installment 3 (2,333 gross, 81 fee) gives 700 with fee
    // floor(81 × 700 / 2333) = 24; B's installment 3 (1,000, 34) gives 300 with fee floor(10.2) = 10.
    expect(planRefund(1000, workedExample())).toEqual({
      offsets: [
        { receivableId: 'a3', receiver: 'seller-a', gross: 700, fee: 24, net: 676 },
        { receivableId: 'b3', receiver: 'seller-b', gross: 300, fee: 10, net: 290 },
      ],
      debits: [],
    });
  });

  it('moves on to earlier receivables and takes the whole fee of a receivable taken whole', () => {
    const plan = planRefund(7000, workedExample(), new Map([['seller-a', 7000]]));
    expect(plan.offsets).toEqual([
      { receivableId: 'a3', receiver: 'seller-a', gross: 2333, fee: 81, net: 2252 },
      { receivableId: 'a2', receiver: 'seller-a', gross: 2333, fee: 81, net: 2252 },
      { receivableId: 'a1', receiver: 'seller-a', gross: 2334, fee: 82, net: 2252 },
    ]);
    expect(plan.debits).toEqual([]);
  });

  it('refunds a whole charge: every fee comes back', () => {
    const plan = planRefund(10000, workedExample());
    expect(plan.offsets).toHaveLength(6);
    expect(plan.offsets.reduce((a, o) => a + o.gross, 0)).toBe(10000);
    expect(plan.offsets.reduce((a, o) => a + o.fee, 0)).toBe(348);
    expect(plan.debits).toEqual([]);
  });

  it('makes a debit of what settled receivables cannot give back', () => {
    const receivables = workedExample().map((r) => (r.installment === 1 ? { ...r, settled: true } : r));
    // seller A owes 7,000: installments 3 and 2 give 4,666; installment 1 has settled, so 2,334 is a debit.
    const plan = planRefund(7000, receivables, new Map([['seller-a', 7000]]));
    expect(plan.offsets.map((o) => [o.receivableId, o.gross, o.fee, o.net])).toEqual([
      ['a3', 2333, 81, 2252],
      ['a2', 2333, 81, 2252],
    ]);
    expect(plan.debits).toEqual([{ receiver: 'seller-a', amount: 2334 }]);
  });

  it('weighs settled receivables too when dividing pro rata', () => {
    const receivables = workedExample().map((r) => ({ ...r, settled: r.receiver === 'seller-b' }));
    const plan = planRefund(1000, receivables);
    expect(plan.offsets).toEqual([{ receivableId: 'a3', receiver: 'seller-a', gross: 700, fee: 24, net: 676 }]);
    expect(plan.debits).toEqual([{ receiver: 'seller-b', amount: 300 }]);
  });

  it('orders by settlement date, then by the highest installment', () => {
    const receivables: OpenReceivable[] = [
      { id: 'x1', receiver: null, installment: 1, gross: 100, fee: 10, net: 90, settled: false, settlementDate: '2026-07-06' },
      { id: 'x2', receiver: null, installment: 2, gross: 100, fee: 10, net: 90, settled: false, settlementDate: '2026-07-06' },
      { id: 'x3', receiver: null, installment: 3, gross: 100, fee: 10, net: 90, settled: false, settlementDate: '2026-06-05' },
    ];
    expect(planRefund(250, receivables).offsets.map((o) => [o.receivableId, o.gross, o.fee])).toEqual([
      ['x2', 100, 10],
      ['x1', 100, 10],
      ['x3', 50, 5],
    ]);
  });

  it('follows the refund split rules, including receivers without receivables', () => {
    const plan = planRefund(
      500,
      workedExample(),
      new Map<string | null, number>([
        ['seller-b', 400],
        ['seller-c', 100],
        ['seller-a', 0],
      ]),
    );
    expect(plan.offsets).toEqual([{ receivableId: 'b3', receiver: 'seller-b', gross: 400, fee: 13, net: 387 }]);
    expect(plan.debits).toEqual([{ receiver: 'seller-c', amount: 100 }]);
  });

  it('refuses refund split rules that do not add up to the amount', () => {
    expect(fieldsOf(() => planRefund(500, workedExample(), new Map([['seller-a', 400]])))).toEqual(['splitRules']);
    expect(fieldsOf(() => planRefund(500, workedExample(), new Map([['seller-a', 600], ['seller-b', -100]])))).toEqual(['splitRules']);
    expect(fieldsOf(() => planRefund(-1, workedExample()))).toEqual(['amount']);
  });

  it('makes a debit of the main account when nothing of the charge is known', () => {
    expect(planRefund(300, [])).toEqual({ offsets: [], debits: [{ receiver: null, amount: 300 }] });
    expect(planRefund(0, workedExample())).toEqual({ offsets: [], debits: [] });
  });

  it('applies offsets to what is left of each receivable', () => {
    const receivables = workedExample();
    const after = applyOffsets(receivables, planRefund(1000, receivables).offsets);
    expect(after.find((r) => r.id === 'a3')).toMatchObject({ gross: 1633, fee: 57, net: 1576 });
    expect(after.find((r) => r.id === 'b3')).toMatchObject({ gross: 700, fee: 24, net: 676 });
    expect(after.find((r) => r.id === 'a1')).toBe(receivables[0]);
    // a second refund of 1,000 now weighs A 6,300 and B 2,700: again 700 / 300
    const second = planRefund(1000, after);
    expect(second.offsets.map((o) => [o.receivableId, o.gross, o.fee])).toEqual([
      ['a3', 700, 24], // floor(57 × 700 / 1633) = 24
      ['b3', 300, 10], // floor(24 × 300 / 700) = 10
    ]);
  });
});
