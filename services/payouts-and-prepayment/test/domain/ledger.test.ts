import type { MinorUnits } from '@platform/api-model';
import {
  ACCOUNTS,
  assertBalanced,
  availableAccount,
  balanceOf,
  capturePosting,
  isBalanced,
  payoutPosting,
  prepaymentPosting,
  receivableAccount,
  receivableRemaining,
  refundPosting,
  scheduledAccount,
  scheduledSettlementPosting,
  schedulePosting,
  settlementPosting,
  type PostingLine,
} from '../../src/domain/ledger';

const receivables = [
  { id: 'a1', receiver: 'seller-a', gross: 2334, fee: 82, net: 2252 },
  { id: 'b1', receiver: 'seller-b', gross: 1000, fee: 36, net: 964 },
  { id: 'm1', receiver: null, gross: 300, fee: 0, net: 300 },
];

describe('ledger accounts', () => {
  it('names the accounts of receivers and of the platform', () => {
    expect(ACCOUNTS).toEqual({ clearing: 'acquirer:clearing', fees: 'platform:fees', prepaymentFees: 'platform:prepayment_fees', transfers: 'bank:transfers' });
    expect(receivableAccount('s1')).toBe('seller:s1:receivable');
    expect(receivableAccount(null)).toBe('main:receivable');
    expect(availableAccount('s1')).toBe('seller:s1:available');
    expect(availableAccount(null)).toBe('main:available');
  });
});

describe('balanced postings', () => {
  /** A line made past minorUnits on purpose: the balance check refuses a fraction at run time too. */
  const raw = (account: string, amount: number): PostingLine => ({ account, amount: amount as MinorUnits });

  it('refuses a posting whose lines do not add up to 0 or that has a line of 0', () => {
    const ok = { kind: 'payout' as const, reference: 'p', lines: [raw('x', 5), raw('y', -5)] };
    expect(isBalanced(ok)).toBe(true);
    expect(assertBalanced(ok)).toBe(ok);
    expect(isBalanced({ ...ok, lines: [raw('x', 5), raw('y', -4)] })).toBe(false);
    expect(isBalanced({ ...ok, lines: [...ok.lines, raw('z', 0)] })).toBe(false);
    expect(isBalanced({ ...ok, lines: [raw('x', 0.5), raw('y', -0.5)] })).toBe(false);
    expect(() => assertBalanced({ ...ok, lines: [raw('x', 1)] })).toThrow(Error);
  });

  it('posts a capture: clearing +gross, receivable −net, fees −fee, zero lines dropped', () => {
    const p = capturePosting('ch_1', receivables);
    expect(p.kind).toBe('capture');
    expect(p.reference).toBe('capture:ch_1');
    expect(p.lines).toEqual([
      { account: 'acquirer:clearing', amount: 2334 },
      { account: 'seller:seller-a:receivable', amount: -2252, receivableId: 'a1' },
      { account: 'platform:fees', amount: -82, receivableId: 'a1' },
      { account: 'acquirer:clearing', amount: 1000 },
      { account: 'seller:seller-b:receivable', amount: -964, receivableId: 'b1' },
      { account: 'platform:fees', amount: -36, receivableId: 'b1' },
      { account: 'acquirer:clearing', amount: 300 },
      { account: 'main:receivable', amount: -300, receivableId: 'm1' },
    ]);
    expect(balanceOf(p.lines, receivableAccount('seller-a'))).toBe(2252);
    expect(balanceOf(p.lines, ACCOUNTS.fees)).toBe(118);
    expect(balanceOf(p.lines, ACCOUNTS.clearing)).toBe(-3634);
    expect(receivableRemaining(p.lines, 'b1')).toBe(964);
    expect(() => capturePosting('ch_2', [{ id: 'z', receiver: null, gross: 10, fee: 1, net: 8 }])).toThrow(Error);
  });

  it('posts a refund: offsets give back net and fee, debits hit the available balance', () => {
    const p = refundPosting('refund:r1', 'refund', [{ receivableId: 'a1', receiver: 'seller-a', gross: 700, fee: 24, net: 676 }], [{ receiver: 'seller-b', amount: 300 }]);
    expect(p).toEqual({
      kind: 'refund',
      reference: 'refund:r1',
      lines: [
        { account: 'acquirer:clearing', amount: -700 },
        { account: 'seller:seller-a:receivable', amount: 676, receivableId: 'a1' },
        { account: 'platform:fees', amount: 24, receivableId: 'a1' },
        { account: 'seller:seller-b:available', amount: 300 },
        { account: 'acquirer:clearing', amount: -300 },
      ],
    });
    const lines = [...capturePosting('ch_1', receivables).lines, ...p.lines];
    expect(receivableRemaining(lines, 'a1')).toBe(2252 - 676);
    expect(balanceOf(lines, ACCOUNTS.fees)).toBe(118 - 24);
    expect(balanceOf(lines, availableAccount('seller-b'))).toBe(-300);
    expect(refundPosting('cb:1', 'chargeback', [], []).kind).toBe('chargeback');
  });

  it('posts a settlement, a prepayment fee and a payout', () => {
    expect(settlementPosting('a1', 'seller-a', 2252)).toEqual({
      kind: 'settlement',
      reference: 'settle:a1',
      lines: [
        { account: 'seller:seller-a:receivable', amount: 2252, receivableId: 'a1' },
        { account: 'seller:seller-a:available', amount: -2252 },
      ],
    });
    expect(prepaymentPosting('pp1', [{ receivableId: 'a1', receiver: 'seller-a', fee: 45 }, { receivableId: 'm1', receiver: null, fee: 0 }])).toEqual({
      kind: 'prepayment',
      reference: 'prepay:pp1',
      lines: [
        { account: 'seller:seller-a:receivable', amount: 45, receivableId: 'a1' },
        { account: 'platform:prepayment_fees', amount: -45 },
      ],
    });
    expect(payoutPosting('b1', null, 300)).toEqual({
      kind: 'payout',
      reference: 'payout:b1',
      lines: [
        { account: 'main:available', amount: 300 },
        { account: 'bank:transfers', amount: -300 },
      ],
    });
    expect(settlementPosting('m1', null, 0).lines).toEqual([]);
    expect(() => payoutPosting('b2', null, -1)).toThrow(Error);
  });

  it('follows a receivable from capture to payout', () => {
    const lines: PostingLine[] = [
      ...capturePosting('ch_1', receivables).lines,
      ...prepaymentPosting('pp1', [{ receivableId: 'a1', receiver: 'seller-a', fee: 45 }]).lines,
      ...settlementPosting('a1', 'seller-a', 2252 - 45).lines,
      ...payoutPosting('batch1', 'seller-a', 2207).lines,
    ];
    expect(receivableRemaining(lines, 'a1')).toBe(0);
    expect(balanceOf(lines, receivableAccount('seller-a'))).toBe(0);
    expect(balanceOf(lines, availableAccount('seller-a'))).toBe(0);
    expect(balanceOf(lines, ACCOUNTS.prepaymentFees)).toBe(45);
    expect(balanceOf(lines, ACCOUNTS.transfers)).toBe(2207);
    expect(balanceOf(lines, 'nobody')).toBe(0);
    expect(Object.is(balanceOf([], 'x'), 0)).toBe(true);
  });

  it('follows a prepaid receivable: out of the future balance at the commit, held for its batch, available on its date, then paid', () => {
    const commit: PostingLine[] = [
      ...capturePosting('ch_1', receivables).lines,
      ...prepaymentPosting('pp1', [{ receivableId: 'a1', receiver: 'seller-a', fee: 45 }]).lines,
      ...schedulePosting('pp1', [{ receivableId: 'a1', receiver: 'seller-a', net: 2207 }]).lines,
    ];
    expect(schedulePosting('pp1', [{ receivableId: 'a1', receiver: 'seller-a', net: 2207 }])).toMatchObject({ kind: 'prepayment', reference: 'schedule:pp1' });
    expect(receivableRemaining(commit, 'a1')).toBe(0);
    expect(balanceOf(commit, receivableAccount('seller-a'))).toBe(0);
    expect(balanceOf(commit, scheduledAccount('seller-a'))).toBe(2207);
    expect(balanceOf(commit, availableAccount('seller-a'))).toBe(0);
    const paid = [...commit, ...scheduledSettlementPosting('a1', 'seller-a', 2207).lines, ...payoutPosting('batch1', 'seller-a', 2207).lines];
    expect(balanceOf(paid, scheduledAccount('seller-a'))).toBe(0);
    expect(balanceOf(paid, availableAccount('seller-a'))).toBe(0);
    expect(balanceOf(paid, ACCOUNTS.transfers)).toBe(2207);
    expect(paid.reduce((s, l) => s + l.amount, 0)).toBe(0);
    expect(scheduledAccount(null)).toBe('main:scheduled');
    expect(schedulePosting('pp2', [{ receivableId: 'm1', receiver: null, net: 0 }]).lines).toEqual([]);
    expect(() => scheduledSettlementPosting('a1', 'seller-a', -1)).toThrow(Error);
  });
});
