import { refundParts, type RefundRequest } from '../../src/domain/refunds';

const request = (id: string, amount: number, split: Array<[string, number]> | null, settledAt: string): RefundRequest => ({
  id,
  amount,
  split: split ? new Map(split) : null,
  settledAt,
});

describe('refundParts: how the growth of a refunded amount is taken', () => {
  it('takes each new refund by its own split, in the order they were done, and the unexplained rest pro rata', () => {
    const late = request('b', 400, [['s2', 100], ['s1', 300]], '2026-03-02T14:01:00.000Z');
    const early = request('a', 600, [['s1', 600]], '2026-03-02T14:00:00.000Z');
    const plain = request('c', 50, null, '2026-03-02T14:02:00.000Z');
    expect(refundParts(1_200, [late, plain, early])).toEqual([
      { amount: 600, perReceiver: new Map([['s1', 600]]) },
      { amount: 400, perReceiver: new Map([['s2', 100], ['s1', 300]]) },
      { amount: 50 },
      { amount: 150 },
    ]);
  });

  it('shares pro rata a refund whose split does not add up to it', () => {
    expect(refundParts(500, [request('a', 500, [['s1', 400]], 't')])).toEqual([{ amount: 500 }]);
  });

  it('keeps only the latest refunds that make the amount when older ones were posted before their ids were kept', () => {
    const older = request('a', 300, [['s1', 300]], '2026-03-01T00:00:00.000Z');
    const newer = request('b', 200, [['s2', 200]], '2026-03-02T00:00:00.000Z');
    expect(refundParts(200, [older, newer])).toEqual([{ amount: 200, perReceiver: new Map([['s2', 200]]) }]);
    // No run of the latest refunds makes 250: all of it pro rata.
    expect(refundParts(250, [older, newer])).toEqual([{ amount: 250 }]);
    expect(refundParts(0, [older])).toEqual([]);
  });
});
