import { randomUUID } from 'node:crypto';
import { cardCharge, cardNumberEnding, chargeEventsOf, createMerchant, failureOf, pixCharge, requestSummary, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

beforeAll(async () => {
  running = await startCharges();
});

afterAll(async () => {
  await running.stop();
});

async function preAuthorized(amount = 1000) {
  const clientId = randomUUID();
  const merchant = await createMerchant(running.client, clientId);
  const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount, capture: false }));
  expect(charge.status).toBe('pre_authorized');
  return { clientId, merchant, charge };
}

describe('CaptureCharge', () => {
  it('captures half, releases the rest, then refunds what was captured', async () => {
    const { clientId, charge } = await preAuthorized(1000);
    const captured = await running.client.captureCharge({ clientId, id: charge.id, amount: 500 });
    expect(captured).toMatchObject({ status: 'authorized', amount: 500, originalAmount: 1000, capturedAmount: 500, refundedAmount: 0 });
    expect(requestSummary(captured).slice(1)).toEqual([{ type: 'capture', status: 'success', amount: 500, providerId: charge.providerId }]);
    expect(captured.transactionRequests[1]!.idempotencyKey).toBe(`${charge.id}:capture:1`);

    const refunded = await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    expect(refunded).toMatchObject({ status: 'voided', capturedAmount: 500, refundedAmount: 500 });
    expect(requestSummary(refunded).map((r) => [r.type, r.status, r.amount])).toEqual([
      ['authorization', 'success', 1000],
      ['capture', 'success', 500],
      ['refund', 'success', 500],
    ]);
    expect(refunded.transactionRequests[2]!.idempotencyKey).toBe(`${charge.id}:refund:1`);
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => e.subject)).toEqual([
      'payments.charge.pre_authorized',
      'payments.charge.authorized',
      'payments.charge.voided',
    ]);
  });

  it('captures the whole authorization by default', async () => {
    const { clientId, charge } = await preAuthorized(2500);
    expect(await running.client.captureCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', amount: 2500, capturedAmount: 2500 });
  });

  it('refuses more than the authorized amount', async () => {
    const { clientId, charge } = await preAuthorized(1000);
    const error = await failureOf(running.client.captureCharge({ clientId, id: charge.id, amount: 1001 }));
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'capture_exceeds_authorized_amount' });
  });

  it('refuses to capture twice, or to capture a Pix, a failed or a voided charge', async () => {
    const { clientId, merchant, charge } = await preAuthorized(1000);
    await running.client.captureCharge({ clientId, id: charge.id });
    const twice = await failureOf(running.client.captureCharge({ clientId, id: charge.id }));
    expect(twice).toMatchObject({ kind: 'business_rule', businessCode: 'charge_status_transition_not_allowed' });

    const pix = await running.client.createCharge(pixCharge(clientId, merchant.id));
    expect(await failureOf(running.client.captureCharge({ clientId, id: pix.id }))).toMatchObject({ businessCode: 'charge_status_transition_not_allowed' });
    const failed = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('5'), { capture: false }));
    expect(await failureOf(running.client.captureCharge({ clientId, id: failed.id }))).toMatchObject({ businessCode: 'charge_status_transition_not_allowed' });
    const held = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { capture: false }));
    await running.client.voidCharge({ clientId, id: held.id, splitRules: [] });
    expect(await failureOf(running.client.captureCharge({ clientId, id: held.id }))).toMatchObject({ businessCode: 'charge_status_transition_not_allowed' });
  });

  it('fails a SANDBOX capture of 991, records the failed request and keeps the charge as it was', async () => {
    const { clientId, charge } = await preAuthorized(991);
    const error = await failureOf(running.client.captureCharge({ clientId, id: charge.id }));
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'provider_request_failed' });
    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ status: 'pre_authorized', capturedAmount: 0, amount: 991 });
    expect(requestSummary(after).map((r) => [r.type, r.status])).toEqual([
      ['authorization', 'success'],
      ['capture', 'failed'],
    ]);
    expect(after.transactionRequests[1]!.message).toMatch(/991/);
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.charge.pre_authorized']);

    // A second try is a new request to the provider, with its own key.
    await failureOf(running.client.captureCharge({ clientId, id: charge.id }));
    const again = await running.client.getCharge({ clientId, id: charge.id });
    expect(again.transactionRequests.map((r) => r.idempotencyKey).slice(1)).toEqual([`${charge.id}:capture:1`, `${charge.id}:capture:2`]);
  });

  it('replays a capture retried with the same idempotency key', async () => {
    const { clientId, charge } = await preAuthorized(1000);
    const idempotencyKey = randomUUID();
    const first = await running.client.captureCharge({ clientId, id: charge.id, amount: 600 }, { idempotencyKey });
    const retried = await running.client.captureCharge({ clientId, id: charge.id, amount: 600 }, { idempotencyKey });
    expect(retried).toEqual(first);
    expect((await running.client.getCharge({ clientId, id: charge.id })).transactionRequests).toHaveLength(2);
  });

  it('answers not_found for an unknown id or another client', async () => {
    const { charge } = await preAuthorized(1000);
    expect((await failureOf(running.client.captureCharge({ clientId: randomUUID(), id: charge.id }))).kind).toBe('not_found');
    expect((await failureOf(running.client.captureCharge({ clientId: charge.clientId, id: 'nope' }))).kind).toBe('not_found');
  });
});
