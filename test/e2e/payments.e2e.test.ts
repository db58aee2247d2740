import { cardNumberEnding } from '@platform/testkit';
import { Client } from 'pg';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

type Json = Record<string, unknown>;
interface TransactionRequest {
  providerId: string;
  requestType: string;
  requestStatus: string;
  amount: number;
  declinedCode: string | null;
}
interface Charge extends Json {
  id: string;
  status: string;
  amount: number;
  declinedCode: string | null;
  transactionRequests: TransactionRequest[];
  paymentMethod: Json;
}

const expiration = `12/${new Date().getUTCFullYear() + 5}`;

describe('payments through the gateway: merchants with failover, the vault, charges', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;
  let providerIds: string[];
  const numbersUsed: string[] = [];
  const cvvsUsed: string[] = [];
  const bodies: string[] = [];

  const call = async <T = Json>(method: string, route: string, body?: unknown, headers?: Record<string, string>) => {
    const response = await api<T>(method, route, { auth: client, body, headers });
    bodies.push(JSON.stringify(response.body));
    return response;
  };
  const inlineCard = (last: number, cvv = '870') => {
    const cardNumber = cardNumberEnding(last);
    numbersUsed.push(cardNumber);
    cvvsUsed.push(cvv);
    return { cardHolderName: 'Ana Souza', cardNumber, cardCvv: cvv, cardExpirationDate: expiration };
  };
  const creditCharge = (source: Json, extra: Json = {}) => ({
    merchantId,
    amount: 10_000,
    currency: 'BRL',
    paymentMethod: { paymentType: 'credit', installments: 1 },
    paymentSource: source,
    ...extra,
  });

  beforeAll(async () => {
    // info level, so that the access logs are part of what is searched for card data
    platform = await startTestPlatform('e2epay', { PROVIDER_TIMEOUT_MS: '300' }, 'info');
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Payments Store');
    const merchant = await call<{ id: string; providers: Array<{ id: string; priority: number; credentials: Json }> }>('POST', '/v1/merchants', {
      mcc: '5999',
      name: 'Loja Exemplo',
      providers: [
        { name: 'sandbox-a', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret-a' } },
        { name: 'sandbox-b', priority: 2, credentials: { type: 'SANDBOX', apiKey: 'provider-secret-b' } },
      ],
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
    providerIds = [...merchant.body.providers].sort((a, b) => a.priority - b.priority).map((p) => p.id);
    expect(merchant.body.providers.map((p) => p.credentials)).toEqual([{ type: 'SANDBOX' }, { type: 'SANDBOX' }]);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('tokenizes a card, saves it, charges it, captures half and refunds the rest, step by step', async () => {
    const token = await call<{ tokenId: string }>('POST', '/v1/tokens', inlineCard(0, '120'));
    expect(token.status).toBe(201);
    const card = await call<Json>('POST', '/v1/cards', { tokenId: token.body.tokenId, cvvCheck: true });
    expect(card.status).toBe(201);
    expect(card.body).toMatchObject({ brand: 'visa', cvvChecked: true, last4digits: numbersUsed.at(-1)!.slice(-4) });
    expect((await call('POST', '/v1/cards', { tokenId: token.body.tokenId })).status).toBe(404);

    const customer = await call<{ id: string }>('POST', '/v1/customers', {
      name: 'Ana Souza',
      email: 'ana.payments@example.com',
      phoneNumber: '11999990000',
      document: { type: 'cpf', number: '52998224725', country: 'BR' },
    });
    expect((await call('POST', `/v1/customers/${customer.body.id}/cards`, { cardId: card.body.id })).status).toBe(204);
    const linked = await call<{ items: Json[] }>('GET', `/v1/customers/${customer.body.id}/cards`);
    expect(linked.body.items.map((c) => c.id)).toEqual([card.body.id]);

    const charge = await call<Charge>('POST', '/v1/charges', creditCharge({ sourceType: 'card', cardId: card.body.id }, { capture: false, customerId: customer.body.id }));
    expect(charge.status).toBe(201);
    expect(charge.body.status).toBe('pre_authorized');

    const captured = await call<Charge>('POST', `/v1/charges/${charge.body.id}/capture`, { amount: 5_000 });
    expect(captured.status).toBe(201);
    expect(captured.body).toMatchObject({ status: 'authorized', amount: 5_000 });

    const refunded = await call<Charge>('POST', `/v1/charges/${charge.body.id}/void`, { amount: 5_000 });
    expect(refunded.status).toBe(201);
    expect(refunded.body.status).toBe('voided');
    expect(refunded.body.transactionRequests.map((t) => [t.requestType, t.requestStatus, t.amount])).toEqual([
      ['authorization', 'success', 10_000],
      ['capture', 'success', 5_000],
      ['refund', 'success', 5_000],
    ]);
    const fetched = await call<Charge>('GET', `/v1/charges/${charge.body.id}`);
    expect(fetched.body.transactionRequests).toHaveLength(3);
    expect((await call('POST', `/v1/charges/${charge.body.id}/void`, { amount: 1 })).status).toBe(422);
  });

  it('fails over to the second provider on a card ending 6, and not on a hard decline (ending 32: lost_card)', async () => {
    const timeout = await call<Charge>('POST', '/v1/charges', creditCharge({ sourceType: 'card', card: inlineCard(6) }));
    expect(timeout.status).toBe(201);
    expect(timeout.body.transactionRequests.map((t) => [t.providerId, t.requestStatus])).toEqual([
      [providerIds[0], 'failed'],
      [providerIds[1], 'failed'],
    ]);
    expect(timeout.body.status).toBe('failed');

    const declined = await call<Charge>('POST', '/v1/charges', creditCharge({ sourceType: 'card', card: inlineCard(32) }));
    expect(declined.status).toBe(201);
    expect(declined.body.status).toBe('failed');
    expect(declined.body.transactionRequests).toHaveLength(1);
    expect(declined.body.transactionRequests[0]).toMatchObject({ providerId: providerIds[0], requestStatus: 'declined' });
    expect(declined.body.declinedCode).toBe('lost_card');

    const expired = await call<{ error: Json }>('POST', '/v1/charges', creditCharge({ sourceType: 'card', card: { ...inlineCard(0), cardExpirationDate: '01/2020' } }));
    expect(expired.status).toBe(402);
    expect(expired.body.error).toMatchObject({ type: 'card_declined', declinedCode: 'expired_card' });
  });

  it('creates Pix and boleto charges pending with their QR and barcode data, and settles them in the sandbox', async () => {
    const customer = await call<{ id: string }>('POST', '/v1/customers', {
      name: 'João Lima',
      email: 'joao.pix@example.com',
      phoneNumber: '11988887777',
      document: { type: 'cpf', number: '11144477735', country: 'BR' },
    });
    const pix = await call<Charge>('POST', '/v1/charges', {
      merchantId,
      amount: 2_500,
      paymentMethod: { paymentType: 'pix', expiresIn: 3600 },
      paymentSource: { sourceType: 'customer', customerId: customer.body.id },
    });
    expect(pix.status).toBe(201);
    expect(pix.body.status).toBe('pending');
    expect(pix.body.paymentMethod.qrCodeData).toEqual(expect.any(String));
    const paid = await call<Charge>('POST', `/v1/charges/${pix.body.id}`, { status: 'authorized' });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('authorized');

    const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const boleto = await call<Charge>('POST', '/v1/charges', {
      merchantId,
      amount: 7_700,
      paymentMethod: { paymentType: 'boleto', expiresDate: due },
      paymentSource: { sourceType: 'customer', customerId: customer.body.id },
    });
    expect(boleto.status).toBe(201);
    expect(boleto.body.status).toBe('pending');
    expect(boleto.body.paymentMethod.barcodeData).toEqual(expect.any(String));
    expect((await call<Charge>('POST', `/v1/charges/${boleto.body.id}`, { status: 'authorized' })).body.status).toBe('authorized');

    const settledPix = await call<{ items: Charge[] }>('GET', '/v1/charges?paymentType=pix&status=authorized,pending');
    expect(settledPix.status).toBe(200);
    expect(settledPix.body.items.map((c) => c.id)).toEqual([pix.body.id]);
  });

  it('creates exactly one charge when the same X-Idempotency-Key is sent 20 times at once', async () => {
    const body = creditCharge({ sourceType: 'card', card: inlineCard(1) }, { orderId: 'order-idem-20' });
    const responses = await Promise.all(Array.from({ length: 20 }, () => call<Charge>('POST', '/v1/charges', body, { 'x-idempotency-key': 'idem-charge-20' })));
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of responses) expect([201, 409]).toContain(r.status);
    const list = await call<{ items: Charge[] }>('GET', '/v1/charges?orderId=order-idem-20');
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]!.transactionRequests).toHaveLength(1);
  });

  it('never shows a card number or CVV in a response, a log line or a database column', async () => {
    expect(numbersUsed.length).toBeGreaterThanOrEqual(5);
    const logs = platform.output();
    expect(logs).toContain('/v1/charges');
    for (const number of numbersUsed) {
      expect(logs).not.toContain(number);
      for (const body of bodies) expect(body).not.toContain(number);
    }
    for (const service of ['payments', 'customers', 'settings']) {
      const db = new Client({ connectionString: platform.databaseUrl(service) });
      await db.connect();
      try {
        const { rows: columns } = await db.query<{ table_name: string; column_name: string }>(
          `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
        );
        for (const { table_name: table, column_name: column } of columns) {
          const { rows } = await db.query<{ v: string | null }>(`SELECT "${column}"::text AS v FROM "${table}"`);
          for (const { v } of rows) {
            if (v === null) continue;
            for (const number of numbersUsed) expect(`${table}.${column}: ${v.includes(number) ? number : ''}`).toBe(`${table}.${column}: `);
            for (const cvv of cvvsUsed) {
              expect(v === cvv || /[Cc]vv"?\s*:\s*"?\d{3,4}/.test(v) ? `${table}.${column} holds a CVV` : '').toBe('');
            }
            expect(v.includes('provider-secret-a') ? `${table}.${column} holds provider credentials` : '').toBe('');
          }
        }
      } finally {
        await db.end();
      }
    }
  });
});
