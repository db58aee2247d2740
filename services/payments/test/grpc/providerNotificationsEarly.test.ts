import { randomUUID } from 'node:crypto';
import { listJobs } from '@platform/kit';
import { eventually } from '@platform/testkit';
import { EARLY_NOTIFICATION } from '../../src/modules/charges/app/providerNotifications';
import { pixCharge } from '../support/charges';
import { fakeMerchant, FakeProvider, notification, startWithProviders, type RunningWithProviders } from '../support/fakeProvider';

const provider = new FakeProvider('SUBACQUIRER', ['pix', 'credit']);
let running: RunningWithProviders;

beforeAll(async () => {
  running = await startWithProviders([provider]);
});

afterAll(async () => {
  provider.beforeAnswer = undefined;
  await running.stop();
});

describe('a provider notification that comes before its charge is recorded', () => {
  it('is held and applied once the charge is there: a Pix paid while its creation was still being answered ends authorized', async () => {
    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { merchantId, providerId } = await fakeMerchant(running.client, clientId, apiKey);
    const replies: number[] = [];
    provider.beforeAnswer = async (transactionId) => {
      provider.settle(transactionId, { status: 'authorized', capturedAmount: 1000 });
      // The provider's webhook, told before the platform has the charge: twice, as providers repeat.
      for (let i = 0; i < 2; i++) replies.push((await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId }]))).status);
    };
    const charge = await running.client.createCharge(pixCharge(clientId, merchantId));
    provider.beforeAnswer = undefined;
    expect(replies).toEqual([200, 200]);
    expect(charge.status).toBe('pending');

    const paid = await eventually(async () => {
      const now = await running.client.getCharge({ clientId, id: charge.id });
      return now.status === 'authorized' ? now : undefined;
    }, 'the held notification applied');
    expect(paid.capturedAmount).toBe(1000);
    // One held look for the two posts, and nothing left waiting.
    await eventually(async () => ((await listJobs(running.pool, EARLY_NOTIFICATION)).length === 0 ? true : undefined), 'the held look done');
  });

  it('holds one look per entry and transaction, however often the provider posts about a transaction of no charge yet', async () => {
    const clientId = randomUUID();
    const apiKey = `key_${randomUUID()}`;
    const { providerId } = await fakeMerchant(running.client, clientId, apiKey);
    const transactionId = `fake_${randomUUID()}`;
    for (let i = 0; i < 3; i++) {
      const reply = await running.client.receiveProviderNotification(notification(providerId, apiKey, [{ id: transactionId, status: 'authorized' }]));
      expect(reply.status).toBe(200);
    }
    const held = (await listJobs(running.pool, EARLY_NOTIFICATION)).filter((j) => j.payload.transactionId === transactionId);
    expect(held.map((j) => j.payload)).toEqual([{ providerId, transactionId, status: 'authorized', providerStatus: 'FAKE_AUTHORIZED', look: 1 }]);
  });
});
