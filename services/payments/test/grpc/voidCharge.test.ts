import { randomUUID } from 'node:crypto';
import {
  boletoCharge,
  cardCharge,
  cardNumberEnding,
  chargeEventsOf,
  createMerchant,
  failureOf,
  pixCharge,
  requestSummary,
  startCharges,
  type RunningCharges,
} from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

async function captured(amount: number, overrides = {}) {
  const clientId = randomUUID();
  const merchant = await createMerchant(running.client, clientId);
  const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount, ...overrides }));
  expect(charge.status).toBe('authorized');
  return { clientId, merchant, charge };
}

describe('VoidCharge', () => {
  it('voids a pre-authorization', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const held = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('4'), { capture: false }));
    const voided = await running.client.voidCharge({ clientId, id: held.id, splitRules: [] });
    expect(voided).toMatchObject({ status: 'voided', capturedAmount: 0, refundedAmount: 0 });
    expect(requestSummary(voided).map((r) => [r.type, r.status, r.amount])).toEqual([
      ['authorization', 'success', 1000],
      ['void', 'success', 1000],
    ]);
    const partial = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('4'), { capture: false }));
    expect((await failureOf(running.client.voidCharge({ clientId, id: partial.id, amount: 10, splitRules: [] }))).details).toEqual([
      { field: 'amount', message: 'an authorization is voided whole (1000)' },
    ]);
  });

  it('cancels a Pix or a boleto not paid yet', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    expect(await running.client.voidCharge({ clientId, id: pix.id, splitRules: [] })).toMatchObject({ status: 'canceled' });
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const boleto = await running.client.createCharge(boletoCharge(clientId, merchant.id, due));
    expect(await running.client.voidCharge({ clientId, id: boleto.id, splitRules: [] })).toMatchObject({ status: 'canceled' });
  });

  it('refunds in parts, keeping authorized until the last part voids the charge', async () => {
    const { clientId, charge } = await captured(1000);
    const first = await running.client.voidCharge({ clientId, id: charge.id, amount: 300, splitRules: [] });
    expect(first).toMatchObject({ status: 'authorized', refundedAmount: 300 });
    const second = await running.client.voidCharge({ clientId, id: charge.id, amount: 200, splitRules: [] });
    expect(second).toMatchObject({ status: 'authorized', refundedAmount: 500 });
    const tooMuch = await failureOf(running.client.voidCharge({ clientId, id: charge.id, amount: 501, splitRules: [] }));
    expect(tooMuch).toMatchObject({ kind: 'business_rule', businessCode: 'refund_exceeds_captured_amount' });
    const last = await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    expect(last).toMatchObject({ status: 'voided', refundedAmount: 1000 });
    expect(last.transactionRequests.filter((r) => r.requestType === 'refund').map((r) => [r.amount, r.idempotencyKey])).toEqual([
      [300, `${charge.id}:refund:1`],
      [200, `${charge.id}:refund:2`],
      [500, `${charge.id}:refund:3`],
    ]);
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => [e.subject, e.payload.data.refundedAmount])).toEqual([
      ['payments.charge.authorized', 0],
      ['payments.charge.authorized', 300],
      ['payments.charge.authorized', 500],
      ['payments.charge.voided', 1000],
    ]);
    const again = await failureOf(running.client.voidCharge({ clientId, id: charge.id, splitRules: [] }));
    expect(again).toMatchObject({ businessCode: 'charge_status_transition_not_allowed' });
  });

  it('never refunds more than was captured when 10 refunds arrive at once', async () => {
    const { clientId, charge } = await captured(1000);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => running.client.voidCharge({ clientId, id: charge.id, amount: 150, splitRules: [] })),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as { businessCode?: string }] : []));
    expect(succeeded).toHaveLength(6);
    for (const error of refused) expect(error.businessCode).toBe('refund_exceeds_captured_amount');
    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ status: 'authorized', capturedAmount: 1000, refundedAmount: 900 });
    expect(after.transactionRequests.filter((r) => r.requestType === 'refund')).toHaveLength(6);
    const { rows } = await running.pool.query<{ refunded: string }>('SELECT refunded_amount AS refunded FROM charges WHERE id = $1', [charge.id]);
    expect(Number(rows[0]!.refunded)).toBe(900);
  });

  it('has the database refuse a refund above the capture even if a bug let one through', async () => {
    const { charge } = await captured(1000);
    await expect(running.pool.query('UPDATE charges SET refunded_amount = 1001 WHERE id = $1', [charge.id])).rejects.toMatchObject({ code: '23514' });
  });

  it('fails a SANDBOX refund or void of 991 and keeps the charge as it was', async () => {
    const { clientId, charge } = await captured(2000);
    const error = await failureOf(running.client.voidCharge({ clientId, id: charge.id, amount: 991, splitRules: [] }));
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'provider_request_failed' });
    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ status: 'authorized', refundedAmount: 0 });
    expect(requestSummary(after).map((r) => [r.type, r.status, r.amount])).toEqual([
      ['authorization', 'success', 2000],
      ['refund', 'failed', 991],
    ]);

    const merchant = await createMerchant(running.client, clientId);
    const held = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 991, capture: false }));
    expect(await failureOf(running.client.voidCharge({ clientId, id: held.id, splitRules: [] }))).toMatchObject({ businessCode: 'provider_request_failed' });
    expect(await running.client.getCharge({ clientId, id: held.id })).toMatchObject({ status: 'pre_authorized' });
  });

  it('records how a refund is taken from the split receivers', async () => {
    const sellerA = randomUUID();
    const sellerB = randomUUID();
    const { clientId, charge } = await captured(1000, {
      splitRules: [
        { sellerId: sellerA, amount: 600, processingFee: false, chargeRemainderFee: false, liable: true },
        { sellerId: sellerB, amount: 400, processingFee: false, chargeRemainderFee: false, liable: false },
      ],
    });
    const refunded = await running.client.voidCharge({
      clientId,
      id: charge.id,
      amount: 500,
      splitRules: [
        { sellerId: sellerA, amount: 300, processingFee: false, chargeRemainderFee: false, liable: false },
        { sellerId: sellerB, amount: 200, processingFee: false, chargeRemainderFee: false, liable: false },
      ],
    });
    expect(refunded.transactionRequests[1]!.splitRules.map((r) => [r.sellerId, r.amount])).toEqual([
      [sellerA, 300],
      [sellerB, 200],
    ]);
    const wrong = await failureOf(
      running.client.voidCharge({
        clientId,
        id: charge.id,
        amount: 100,
        splitRules: [{ sellerId: randomUUID(), amount: 100, processingFee: false, chargeRemainderFee: false, liable: false }],
      }),
    );
    expect(wrong.details).toEqual([{ field: 'splitRules.0.sellerId', message: 'is not a receiver of this charge' }]);
  });

  it('refuses to void a failed or canceled charge', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const failed = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('3')));
    expect(await failureOf(running.client.voidCharge({ clientId, id: failed.id, splitRules: [] }))).toMatchObject({
      businessCode: 'charge_status_transition_not_allowed',
    });
    const canceled = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('7')));
    expect(await failureOf(running.client.voidCharge({ clientId, id: canceled.id, splitRules: [] }))).toMatchObject({
      businessCode: 'charge_status_transition_not_allowed',
    });
  });
});
