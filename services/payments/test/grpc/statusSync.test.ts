import { randomUUID } from 'node:crypto';
import { RESUME_ABANDONED_OPERATIONS, SYNC_PROVIDER_STATUSES } from '../../src/modules/charges/app/chargeJobs';
import { cardCharge, cardNumberEnding, chargeEventsOf, pixCharge } from '../support/charges';
import { fakeMerchant, FakeProvider, notification, runJob, startWithProviders, syncStateOf, type RunningWithProviders } from '../support/fakeProvider';

const MINUTE = 60_000;
const provider = new FakeProvider('SUBACQUIRER', ['pix', 'credit']);
let running: RunningWithProviders;

beforeAll(async () => {
  running = await startWithProviders([provider]);
  running.clock.set(new Date('2026-03-02T12:00:00Z'));
});

afterAll(async () => {
  await running.stop();
});

const transactionIdOf = (charge: { transactionRequests: Array<{ requestType: string; requestStatus: string; transactionId: string }> }) =>
  charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.requestStatus === 'success')!.transactionId;

/** One run of the sync job, waited for. */
const syncOnce = () => runJob(running.pool, SYNC_PROVIDER_STATUSES);

describe('the status sync', () => {
  it('settles a pending Pix whose notification was lost, once its check is due on the clock', async () => {
    const clientId = randomUUID();
    const { merchantId } = await fakeMerchant(running.client, clientId, `key_${randomUUID()}`);
    const charge = await running.client.createCharge(pixCharge(clientId, merchantId));
    provider.settle(transactionIdOf(charge), { status: 'authorized', capturedAmount: charge.amount });

    // Not due yet: the first check is a minute after the charge last changed.
    const queries = provider.count('query');
    await syncOnce();
    expect((await running.client.getCharge({ clientId, id: charge.id })).status).toBe('pending');
    expect(await syncStateOf(running.pool, charge.id)).toMatchObject({ attempts: 0, nextAt: null });

    running.clock.advance(MINUTE);
    await syncOnce();
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: charge.amount });
    expect(provider.count('query')).toBeGreaterThan(queries);
    const subjects = (await chargeEventsOf(running.pool, clientId)).map((e) => e.subject);
    expect(subjects).toEqual(['payments.charge.pending', 'payments.charge.authorized']);
  });

  it('waits longer after each check that finds the Pix still unpaid: 1, 2, 4 minutes', async () => {
    const clientId = randomUUID();
    const { merchantId } = await fakeMerchant(running.client, clientId, `key_${randomUUID()}`);
    const charge = await running.client.createCharge(pixCharge(clientId, merchantId));

    const gaps: number[] = [];
    for (let i = 0; i < 3; i++) {
      const state = await syncStateOf(running.pool, charge.id);
      running.clock.set(state.nextAt ?? new Date(running.clock.now().getTime() + MINUTE));
      const at = running.clock.now().getTime();
      await syncOnce();
      const after = await syncStateOf(running.pool, charge.id);
      expect(after.attempts).toBe(i + 1);
      gaps.push((after.nextAt!.getTime() - at) / MINUTE);
    }
    expect(gaps).toEqual([1, 2, 4]);
    expect((await running.client.getCharge({ clientId, id: charge.id })).status).toBe('pending');
  });

  it('leaves a refund its provider answered pending as refund_pending, never asks it again, and settles it when the provider confirms', async () => {
    const clientId = randomUUID();
    const { merchantId } = await fakeMerchant(running.client, clientId, `key_${randomUUID()}`);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, cardNumberEnding('1')));
    expect(charge.status).toBe('authorized');
    const transactionId = transactionIdOf(charge);

    provider.operationAnswer = 'pending';
    let refunding;
    try {
      refunding = await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    } finally {
      provider.operationAnswer = 'success';
    }
    expect(refunding).toMatchObject({ status: 'refund_pending', refundedAmount: 0 });
    expect(provider.count('refund')).toBe(1);

    // Long past the abandoned-operation delay: the resumer leaves the accepted refund alone.
    running.clock.advance(10 * MINUTE);
    await runJob(running.pool, RESUME_ABANDONED_OPERATIONS);
    await syncOnce();
    expect(provider.count('refund')).toBe(1);
    expect((await running.client.getCharge({ clientId, id: charge.id })).status).toBe('refund_pending');

    provider.settle(transactionId, { status: 'voided', refundedAmount: charge.amount });
    running.clock.advance(5 * MINUTE);
    await syncOnce();
    const refunded = await running.client.getCharge({ clientId, id: charge.id });
    expect(refunded).toMatchObject({ status: 'voided', refundedAmount: charge.amount });
    expect(refunded.transactionRequests.map((r) => [r.requestType, r.requestStatus])).toEqual([
      ['authorization', 'success'],
      ['refund', 'success'],
    ]);
    expect(provider.count('refund')).toBe(1);
    const subjects = (await chargeEventsOf(running.pool, clientId)).map((e) => e.subject);
    expect(subjects).toEqual(['payments.charge.authorized', 'payments.charge.refund_pending', 'payments.charge.voided']);
  });

  it('puts a charge back to authorized, with the refund request failed, when the provider refuses the pending refund', async () => {
    const clientId = randomUUID();
    const { merchantId } = await fakeMerchant(running.client, clientId, `key_${randomUUID()}`);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, cardNumberEnding('1')));
    provider.operationAnswer = 'pending';
    try {
      await running.client.voidCharge({ clientId, id: charge.id, amount: 400, splitRules: [] });
    } finally {
      provider.operationAnswer = 'success';
    }
    provider.settle(transactionIdOf(charge), { status: 'authorized', refundedAmount: 0 });
    running.clock.advance(2 * MINUTE);
    await syncOnce();

    const refused = await running.client.getCharge({ clientId, id: charge.id });
    expect(refused).toMatchObject({ status: 'authorized', refundedAmount: 0, capturedAmount: charge.amount });
    expect(refused.transactionRequests.map((r) => [r.requestType, r.requestStatus])).toEqual([
      ['authorization', 'success'],
      ['refund', 'failed'],
    ]);
  });
});

describe('the status sync, at the end of a charge', () => {
  it('stops asking about a Pix an hour past its expiry with the provider still saying pending, and leaves it pending', async () => {
    const clientId = randomUUID();
    const { merchantId } = await fakeMerchant(running.client, clientId, `key_${randomUUID()}`);
    provider.pixExpiresAt = new Date(running.clock.now().getTime() + 30 * MINUTE);
    const charge = await running.client.createCharge(pixCharge(clientId, merchantId));

    running.clock.advance(60 * MINUTE);
    await syncOnce();
    expect(await syncStateOf(running.pool, charge.id)).toMatchObject({ attempts: 1, stoppedAt: null });

    running.clock.advance(31 * MINUTE);
    await syncOnce();
    const stopped = await syncStateOf(running.pool, charge.id);
    expect(stopped).toMatchObject({ attempts: 2, nextAt: null });
    expect(stopped.stoppedAt).toEqual(running.clock.now());

    const asked = () => provider.calls.filter((c) => c.operation === 'query' && c.transactionId === transactionIdOf(charge)).length;
    const queries = asked();
    expect(queries).toBe(2);
    running.clock.advance(120 * MINUTE);
    await syncOnce();
    expect(asked()).toBe(queries);
    expect((await running.client.getCharge({ clientId, id: charge.id })).status).toBe('pending');
  });

  it('records a refund made at the provider that the platform never asked, with its amount', async () => {
    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { merchantId, providerId } = await fakeMerchant(running.client, clientId, apiKey);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, cardNumberEnding('1')));
    const transactionId = transactionIdOf(charge);
    provider.settle(transactionId, { refundedAmount: 300 });

    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId }]));
    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId }]));

    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ status: 'authorized', capturedAmount: charge.amount, refundedAmount: 300 });
    expect(after.transactionRequests.map((r) => [r.requestType, r.requestStatus, r.amount])).toEqual([
      ['authorization', 'success', charge.amount],
      ['refund', 'success', 300],
    ]);
  });

  it('leaves a capture its provider answered pending as capture_pending until the provider says it captured', async () => {
    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { merchantId, providerId } = await fakeMerchant(running.client, clientId, apiKey);
    const held = await running.client.createCharge(cardCharge(clientId, merchantId, cardNumberEnding('1'), { capture: false }));
    expect(held.status).toBe('pre_authorized');
    provider.operationAnswer = 'pending';
    let capturing;
    try {
      capturing = await running.client.captureCharge({ clientId, id: held.id, amount: 600 });
    } finally {
      provider.operationAnswer = 'success';
    }
    expect(capturing).toMatchObject({ status: 'capture_pending', capturedAmount: 0 });

    const transactionId = transactionIdOf(held);
    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId, status: 'capture_pending' }]));
    expect((await running.client.getCharge({ clientId, id: held.id })).status).toBe('capture_pending');
    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId, status: 'authorized' }]));
    const captured = await running.client.getCharge({ clientId, id: held.id });
    expect(captured).toMatchObject({ status: 'authorized', amount: 600, capturedAmount: 600 });
    expect(captured.transactionRequests.map((r) => [r.requestType, r.requestStatus])).toEqual([
      ['authorization', 'success'],
      ['capture', 'success'],
    ]);
  });
});
