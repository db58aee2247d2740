import { randomInt } from 'node:crypto';
import { cardNumberEnding } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform } from './platform';

type Json = Record<string, unknown>;
interface Subscription {
  id: string;
  status: string;
  cyclesBilled: number;
}
interface ErrorBody {
  error: { code: number; businessCode?: string; message: string };
}

const DAY = 86_400_000;

/** A platform with a client, a merchant and a way to make customers and saved cards. */
async function world() {
  const platform = await startTestPlatform('e2emoney', {}, 'warn');
  const api = apiClient(platform.gatewayUrl);
  const client = await createClient(platform.adminUrl, platform.adminToken, 'Money Defects');
  const call = <T = Json>(method: string, route: string, body?: unknown) => api<T>(method, route, { auth: client, body });
  const merchant = await call<{ id: string }>('POST', '/v1/merchants', {
    mcc: '5999',
    name: 'Coffee Club',
    providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }],
  });
  expect(merchant.status).toBe(201);
  const customer = async () => {
    const n = String(randomInt(10_000_000_000, 99_999_999_999));
    const res = await call<{ id: string }>('POST', '/v1/customers', {
      name: 'Ana Souza',
      email: `ana.${n}@example.com`,
      phoneNumber: '11988887777',
      document: { type: 'cpf', number: n, country: 'BR' },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const card = async () => {
    const token = await call<{ tokenId: string }>('POST', '/v1/tokens', {
      cardHolderName: 'Ana Souza',
      cardNumber: cardNumberEnding('1'),
      cardCvv: '870',
      cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}`,
    });
    const saved = await call<{ id: string }>('POST', '/v1/cards', { tokenId: token.body.tokenId });
    expect(saved.status).toBe(201);
    return saved.body.id;
  };
  const link = (customerId: string, cardId: string) => call<ErrorBody>('POST', `/v1/customers/${customerId}/cards`, { cardId });
  const subscribe = (customerId: string, cardId: string, interval: string) =>
    call<Subscription & ErrorBody>('POST', '/v1/subscriptions', {
      name: 'Coffee club',
      merchantId: merchant.body.id,
      customerId,
      items: [{ name: 'Beans 1 kg', amount: 4_500, quantity: 1 }],
      recurrence: { interval, startAt: new Date(Date.now() + DAY).toISOString() },
      paymentMethod: { type: 'credit', card: { cardId }, installments: 1 },
    });
  const chargeTotal = async () => (await call<{ meta: { totalItems: number } }>('GET', '/v1/charges?limit=1')).body.meta.totalItems;
  return { platform, call, customer, card, link, subscribe, chargeTotal };
}

describe('money defects: customer cards and subscriptions', () => {
  let w: Awaited<ReturnType<typeof world>>;

  beforeAll(async () => {
    w = await world();
  }, 120_000);

  afterAll(async () => {
    await w?.platform.stop();
  });

  it("refuses to link a saved card to a second customer, so the second customer's subscription cannot bill it", async () => {
    const [first, second] = [await w.customer(), await w.customer()];
    const cardId = await w.card();
    expect((await w.link(first, cardId)).status).toBe(204);
    const refused = await w.link(second, cardId);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 422, businessCode: 'card_linked_to_another_customer' });
    expect((await w.call<{ items: unknown[] }>('GET', `/v1/customers/${second}/cards`)).body.items).toEqual([]);
    expect((await w.call<{ customerId: string }>('GET', `/v1/cards/${cardId}`)).body.customerId).toBe(first);
    const stolen = await w.subscribe(second, cardId, 'monthly');
    expect(stolen.status).toBe(422);
    expect(stolen.body.error.businessCode).toBe('card_not_of_customer');
    // The card's own customer can still link it again and subscribe with it.
    expect((await w.link(first, cardId)).status).toBe(204);
    expect((await w.subscribe(first, cardId, 'monthly')).status).toBe(201);
  });

  it('refuses at once an advance that would bill more than 36 cycles, and bills nothing', async () => {
    const customerId = await w.customer();
    const cardId = await w.card();
    expect((await w.link(customerId, cardId)).status).toBe(204);
    const subscription = (await w.subscribe(customerId, cardId, 'daily')).body;
    const before = await w.chargeTotal();
    // Two years of a daily subscription: 730 cycles, far past what one call may bill.
    const far = await w.call<ErrorBody>('POST', `/v1/subscriptions/${subscription.id}/sandbox/advance`, { to: new Date(Date.now() + 730 * DAY).toISOString() });
    expect(far.status).toBe(422);
    expect(far.body.error).toMatchObject({ code: 422, businessCode: 'advance_too_far' });
    expect(await w.chargeTotal()).toBe(before);
    expect((await w.call<Subscription>('GET', `/v1/subscriptions/${subscription.id}`)).body.cyclesBilled).toBe(0);
  });

  it('answers concurrent advances of one subscription with the result or a 409 envelope, never a 500, and bills each cycle once', async () => {
    const customerId = await w.customer();
    const cardId = await w.card();
    expect((await w.link(customerId, cardId)).status).toBe(204);
    const subscription = (await w.subscribe(customerId, cardId, 'weekly')).body;
    const before = await w.chargeTotal();
    const to = new Date(Date.now() + DAY + 9 * 7 * DAY + 1_000).toISOString();
    const answers = await Promise.all(Array.from({ length: 6 }, () => w.call<Subscription & ErrorBody>('POST', `/v1/subscriptions/${subscription.id}/sandbox/advance`, { to })));
    for (const answer of answers) {
      if (answer.status === 200) continue;
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({ code: 409, message: expect.any(String) });
    }
    const final = await w.call<Subscription>('POST', `/v1/subscriptions/${subscription.id}/sandbox/advance`, { to });
    expect(final.status).toBe(200);
    expect(final.body.cyclesBilled).toBe(10);
    expect((await w.chargeTotal()) - before).toBe(10);
  });
});
