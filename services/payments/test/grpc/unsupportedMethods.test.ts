import { randomUUID } from 'node:crypto';
import { pixCharge } from '../support/charges';
import { FakeProvider, startWithProviders, type RunningWithProviders } from '../support/fakeProvider';

const cardsOnly = new FakeProvider('SUBACQUIRER', ['credit', 'debit']);
let running: RunningWithProviders;

beforeAll(async () => {
  running = await startWithProviders([cardsOnly]);
});

afterAll(async () => {
  await running.stop();
});

describe('a provider that does not take the payment type', () => {
  it('is skipped without being asked, the skip recorded, and the next provider takes the charge', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant({
      clientId,
      mcc: '5999',
      name: 'Loja Teste',
      merchantName: 'Loja Teste',
      merchantUrl: 'https://loja.example.test',
      providers: [
        { name: 'cards', priority: 1, credentials: { type: 'SUBACQUIRER', apiKey: 'sk_cards' }, options: {} },
        { name: 'sandbox', priority: 2, credentials: { type: 'SANDBOX', apiKey: 'sk_sandbox' }, options: {} },
      ],
    });
    const [cards, sandbox] = merchant.providers.sort((a, b) => a.priority - b.priority);

    const charge = await running.client.createCharge(pixCharge(clientId, merchant.id));

    expect(cardsOnly.count('authorize')).toBe(0);
    expect(charge).toMatchObject({ status: 'pending', providerId: sandbox!.id });
    expect(charge.transactionRequests.map((r) => ({ providerId: r.providerId, status: r.requestStatus, message: r.message, responseMs: r.responseTs }))).toEqual([
      { providerId: cards!.id, status: 'failed', message: 'skipped: SUBACQUIRER does not take pix', responseMs: '0' },
      { providerId: sandbox!.id, status: 'success', message: 'pending payment', responseMs: expect.any(String) },
    ]);
  });
});
