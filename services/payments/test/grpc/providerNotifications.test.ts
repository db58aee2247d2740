import { randomUUID } from 'node:crypto';
import { chargeEventsOf, failureOf, pixCharge } from '../support/charges';
import { fakeMerchant, FakeProvider, notification, startWithProviders, type RunningWithProviders } from '../support/fakeProvider';

const provider = new FakeProvider('SUBACQUIRER', ['pix', 'credit']);
let running: RunningWithProviders;

beforeAll(async () => {
  running = await startWithProviders([provider]);
});

afterAll(async () => {
  await running.stop();
});

const transactionIdOf = (charge: { transactionRequests: Array<{ requestType: string; requestStatus: string; transactionId: string }> }) =>
  charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.requestStatus === 'success')!.transactionId;

async function pendingPix(clientId: string, apiKey: string) {
  const { merchantId, providerId } = await fakeMerchant(running.client, clientId, apiKey);
  const charge = await running.client.createCharge(pixCharge(clientId, merchantId));
  expect(charge.status).toBe('pending');
  return { charge, providerId, transactionId: transactionIdOf(charge) };
}

describe('a provider notification', () => {
  it('pays a pending Pix once: the same notification again, or a late "pending", changes nothing', async () => {
    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { charge, providerId, transactionId } = await pendingPix(clientId, apiKey);

    const reply = await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId, status: 'authorized' }]));
    expect(reply).toEqual({ status: 200, bodyJson: JSON.stringify({ ok: true }) });
    const paid = await running.client.getCharge({ clientId, id: charge.id });
    expect(paid).toMatchObject({ status: 'authorized', capturedAmount: charge.amount });

    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId, status: 'authorized' }]));
    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId, status: 'pending' }]));

    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ status: 'authorized', capturedAmount: charge.amount });
    expect(after.updatedAt).toEqual(paid.updatedAt);
    const subjects = (await chargeEventsOf(running.pool, clientId)).map((e) => e.subject);
    expect(subjects.filter((s) => s === 'payments.charge.authorized')).toHaveLength(1);
    expect(subjects.filter((s) => s === 'payments.charge.pending')).toHaveLength(1);
  });

  it('asks the provider when the notification gives no status, and follows its answer', async () => {
    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { charge, providerId, transactionId } = await pendingPix(clientId, apiKey);
    const queries = provider.count('query');

    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId }]));
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'pending' });

    provider.settle(transactionId, { status: 'authorized', capturedAmount: charge.amount });
    await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId }]));
    expect(provider.count('query')).toBe(queries + 2);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: charge.amount });
  });

  it('refuses a notification whose signature is not the entry\'s (401) and changes nothing', async () => {
    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { charge, providerId, transactionId } = await pendingPix(clientId, apiKey);

    const forged = notification(providerId, 'another-key', [{ id: transactionId, status: 'authorized' }]);
    const error = await failureOf(running.client.receiveProviderNotification(forged));
    expect(error).toMatchObject({ kind: 'unauthenticated' });
    expect(error.message).not.toContain(apiKey);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'pending', capturedAmount: 0 });
    expect((await chargeEventsOf(running.pool, clientId)).map((e) => e.subject)).toEqual(['payments.charge.pending']);
  });

  it("never touches another client's charge: a notification to one client's entry naming another's transaction is a no-op (200)", async () => {
    const victim = randomUUID();
    const victimKey = `key_${randomUUID()}`;
    const { charge, transactionId } = await pendingPix(victim, victimKey);
    const attacker = randomUUID();
    const attackerKey = `key_${randomUUID()}`;
    const { providerId: attackerEntry } = await fakeMerchant(running.client, attacker, attackerKey);

    const reply = await running.client.receiveProviderNotification(notification(attackerEntry, attackerKey, [{ id: transactionId, status: 'authorized' }]));
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId: victim, id: charge.id })).toMatchObject({ status: 'pending', capturedAmount: 0 });
    expect((await chargeEventsOf(running.pool, victim)).map((e) => e.subject)).toEqual(['payments.charge.pending']);
  });

  it('answers 404 for an unknown entry id, an id that is not a UUID, and a deleted merchant\'s entry', async () => {
    const unknown = await failureOf(running.client.receiveProviderNotification(notification(randomUUID(), 'k', [])));
    expect(unknown).toMatchObject({ kind: 'not_found' });
    const malformed = await failureOf(running.client.receiveProviderNotification(notification('not-a-uuid', 'k', [])));
    expect(malformed).toMatchObject({ kind: 'not_found' });

    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { merchantId, providerId } = await fakeMerchant(running.client, clientId, apiKey);
    expect((await running.client.receiveProviderNotification(notification(providerId, apiKey, []))).status).toBe(200);
    await running.client.deleteMerchant({ clientId, id: merchantId });
    const deleted = await failureOf(running.client.receiveProviderNotification(notification(providerId, apiKey, [])));
    expect(deleted).toMatchObject({ kind: 'not_found' });
  });
});
