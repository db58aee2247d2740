import { randomInt, randomUUID } from 'node:crypto';
import { cardNumberEnding } from '@platform/testkit';
import { apiClient, createClient, naturalPerson, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;
interface Answer {
  id?: string;
  processId?: string;
  error?: { businessCode?: string; key?: string };
}

/**
 * X-Idempotency-Key on the POSTs that create something, through the gateway: the same key and body answer the same
 * resource and store it once; the same key with another body answers 422 `idempotency_key_reused`; two requests
 * at once with one key store one.
 */
describe('X-Idempotency-Key on every create', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;

  beforeAll(async () => {
    platform = await startTestPlatform('e2eidem');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Idempotent Store');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Loja Idem', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const post = (path: string, body: Json, key: string) => api<Answer>('POST', path, { auth: client, body, headers: { 'x-idempotency-key': key } });
  const idOf = (answer: Answer) => answer.id ?? answer.processId;

  /** Once, again, then with another body: the same resource twice, then 422. */
  async function expectIdempotent(path: string, body: Json, other: Json): Promise<string> {
    const key = `idem-${randomUUID()}`;
    const first = await post(path, body, key);
    expect([path, first.status]).toEqual([path, 201]);
    const again = await post(path, body, key);
    expect([path, again.status, idOf(again.body)]).toEqual([path, 201, idOf(first.body)]);
    const reused = await post(path, other, key);
    expect([path, reused.status, reused.body.error?.businessCode]).toEqual([path, 422, 'idempotency_key_reused']);
    return idOf(first.body)!;
  }

  const session = (name: string) => ({ merchantId, name, paymentMethods: [{ paymentType: 'credit' }], items: [{ name: 'Blue mug', unitPrice: 2500, quantity: 2 }] });

  it('payment links: one session per key, also for two requests at once', async () => {
    const id = await expectIdempotent('/v1/sessions', session('Blue mugs'), session('Red mugs'));
    const key = `idem-${randomUUID()}`;
    const [a, b] = await Promise.all([post('/v1/sessions', session('Green mugs'), key), post('/v1/sessions', session('Green mugs'), key)]);
    const answered = [a, b].filter((r) => r.status === 201);
    expect([a.status, b.status].every((s) => s === 201 || s === 409)).toBe(true);
    expect(new Set(answered.map((r) => r.body.id)).size).toBe(1);
    const listed = await api<{ items: Array<{ id: string; name: string }> }>('GET', '/v1/sessions?limit=100', { auth: client });
    expect(listed.body.items.filter((s) => s.name === 'Blue mugs').map((s) => s.id)).toEqual([id]);
    expect(listed.body.items.filter((s) => s.name === 'Green mugs')).toHaveLength(1);
  });

  it('sellers and the sandbox registration reviews', async () => {
    const sellerId = await expectIdempotent('/v1/sellers', naturalPerson(merchantId, 'idem@example.com'), naturalPerson(merchantId, 'other@example.com'));
    const sellers = await api<{ items: Array<{ id: string }> }>('GET', '/v1/sellers?limit=100', { auth: client });
    expect(sellers.body.items.map((s) => s.id)).toEqual([sellerId]);
    const deadlineAt = new Date(Date.now() + 10 * 86_400_000).toISOString();
    await expectIdempotent(
      '/v1/sellers/registration-reviews',
      { document: { type: 'cpf', number: '12345678909' }, reviewType: 'acp', deadlineAt },
      { document: { type: 'cpf', number: '11144477735' }, reviewType: 'acp', deadlineAt },
    );
    await expectIdempotent(`/v1/sellers/${sellerId}/registration-reviews`, { reviewType: 'acp', deadlineAt }, { reviewType: 'aci', deadlineAt });
    const reviews = await api<{ items: unknown[] }>('GET', '/v1/sellers/registration-reviews?limit=100', { auth: client });
    expect(reviews.body.items).toHaveLength(2);
  });

  it('sub-acquirer plans', async () => {
    const id = await expectIdempotent('/v1/subacquirer/plans', { name: 'Idem plan' }, { name: 'Another plan' });
    const plans = await api<{ items: Array<{ id: string; name: string }> }>('GET', '/v1/subacquirer/plans?limit=100', { auth: client });
    expect(plans.body.items.filter((p) => p.name === 'Idem plan').map((p) => p.id)).toEqual([id]);
  });

  it('subscriptions', async () => {
    const n = String(randomInt(10_000_000_000, 99_999_999_999));
    const customer = await api<{ id: string }>('POST', '/v1/customers', {
      auth: client,
      body: { name: 'Ana Souza', email: `ana.${n}@example.com`, phoneNumber: '11988887777', document: { type: 'cpf', number: n, country: 'BR' } },
    });
    const token = await api<{ tokenId: string }>('POST', '/v1/tokens', {
      auth: client,
      body: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding('1'), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` },
    });
    const card = await api<{ id: string }>('POST', '/v1/cards', { auth: client, body: { tokenId: token.body.tokenId } });
    expect((await api('POST', `/v1/customers/${customer.body.id}/cards`, { auth: client, body: { cardId: card.body.id } })).status).toBe(204);
    const subscription = (name: string) => ({
      name,
      merchantId,
      customerId: customer.body.id,
      items: [{ name: 'Beans 1 kg', amount: 4_500, quantity: 1 }],
      recurrence: { interval: 'monthly' },
      paymentMethod: { type: 'credit', card: { cardId: card.body.id }, installments: 1 },
    });
    const id = await expectIdempotent('/v1/subscriptions', subscription('Coffee club'), subscription('Tea club'));
    const listed = await api<{ items: Array<{ id: string }> }>('GET', `/v1/subscriptions?customerId=${customer.body.id}`, { auth: client });
    expect(listed.body.items.map((s) => s.id)).toEqual([id]);
  });

  it('reports', async () => {
    await expectIdempotent('/v1/reports', { type: 'transactions', fields: ['id', 'amount'] }, { type: 'transactions', fields: ['id', 'status'] });
  });
});
