import { randomUUID } from 'node:crypto';
import { cardCharge, cardNumberEnding, chargeEventsOf, createMerchant, failureOf, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

const rule = (sellerId: string, amount: number) => ({ sellerId, amount, processingFee: false, chargeRemainderFee: false, liable: false });

/** A captured 10,000 card charge split 7,000 to seller 1 and 3,000 to seller 2. */
async function splitCharge() {
  const clientId = randomUUID();
  const seller1 = randomUUID();
  const seller2 = randomUUID();
  const merchant = await createMerchant(running.client, clientId);
  const charge = await running.client.createCharge(
    cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 10_000, splitRules: [{ ...rule(seller1, 7_000), liable: true }, rule(seller2, 3_000)] }),
  );
  expect(charge.status).toBe('authorized');
  return { clientId, seller1, seller2, charge };
}

describe('a refund split takes from a receiver at most what it holds', () => {
  it('refuses (422 refund_split_exceeds_receiver_share) a split taking more from a seller than its share, writing nothing', async () => {
    const { clientId, seller2, charge } = await splitCharge();
    const events = (await chargeEventsOf(running.pool, clientId)).length;
    const refused = await failureOf(running.client.voidCharge({ clientId, id: charge.id, amount: 4_000, splitRules: [rule(seller2, 4_000)] }));
    expect(refused).toMatchObject({ kind: 'business_rule', businessCode: 'refund_split_exceeds_receiver_share' });
    expect(refused.message).toContain(seller2);
    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ status: 'authorized', refundedAmount: 0 });
    expect(after.transactionRequests.filter((r) => r.requestType === 'refund')).toEqual([]);
    expect((await chargeEventsOf(running.pool, clientId)).length).toBe(events);
  });

  it("counts earlier refunds: each split's amounts, and a refund without split pro rata", async () => {
    const { clientId, seller1, seller2, charge } = await splitCharge();
    // Seller 2 gives 2,000 of its 3,000: 1,000 left.
    await running.client.voidCharge({ clientId, id: charge.id, amount: 2_000, splitRules: [rule(seller2, 2_000)] });
    const more = await failureOf(running.client.voidCharge({ clientId, id: charge.id, amount: 1_001, splitRules: [rule(seller2, 1_001)] }));
    expect(more).toMatchObject({ businessCode: 'refund_split_exceeds_receiver_share' });
    // 800 without split, shared 7,000 : 1,000: seller 1 gives 700, seller 2 gives 100 (900 left).
    await running.client.voidCharge({ clientId, id: charge.id, amount: 800, splitRules: [] });
    expect(await failureOf(running.client.voidCharge({ clientId, id: charge.id, amount: 901, splitRules: [rule(seller2, 901)] }))).toMatchObject({
      businessCode: 'refund_split_exceeds_receiver_share',
    });
    const last = await running.client.voidCharge({ clientId, id: charge.id, amount: 7_200, splitRules: [rule(seller1, 6_300), rule(seller2, 900)] });
    expect(last).toMatchObject({ status: 'voided', refundedAmount: 10_000 });
  });

  it('counts a refund still being asked: two splits at once never take more than a seller holds', async () => {
    const { clientId, seller2, charge } = await splitCharge();
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => running.client.voidCharge({ clientId, id: charge.id, amount: 1_000, splitRules: [rule(seller2, 1_000)] })),
    );
    const after = await running.client.getCharge({ clientId, id: charge.id });
    const fromSeller2 = after.transactionRequests
      .filter((r) => r.requestType === 'refund' && r.requestStatus === 'success')
      .flatMap((r) => r.splitRules.filter((s) => s.sellerId === seller2).map((s) => s.amount ?? 0))
      .reduce((a, v) => a + v, 0);
    expect(fromSeller2).toBeLessThanOrEqual(3_000);
    expect(fromSeller2).toBe(after.refundedAmount);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(fromSeller2 / 1_000);
  });
});
