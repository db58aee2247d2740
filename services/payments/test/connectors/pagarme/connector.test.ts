import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brCodeValid, startPagarmeSimulator, type PagarmeHook, type PagarmeSimulator } from '@platform/simulators';
import type { AuthorizeRequest, AuthorizeResult, LookupRequest, OperationRequest, ProviderCall, QueryRequest } from '../../../src/modules/connectors/domain/types';
import { NotificationRefusedError, ProviderOutcomeUnknownError, ProviderUnavailableError } from '../../../src/modules/connectors/domain/types';
import { connectorFor } from '../../../src/modules/connectors/catalog';
import { pagarmeConnector } from '../../../src/modules/connectors/pagarme';
import { idempotencyKeyOf, PagarmeProvider, pagarmeBaseUrl } from '../../../src/modules/connectors/pagarme/connector';
import { pagarmeNotifications } from '../../../src/modules/connectors/pagarme/notifications';
import { cardData } from '../../support/cards';

const SECRET_KEY = 'sk_test_9d8c7b6a5f4e3d2c1b0a';
const CREDENTIALS = { type: 'PAGARME', secretKey: SECRET_KEY, environment: 'sandbox' };
const T0 = new Date('2026-11-10T15:00:00Z');
const CVV = '917';
const PAYER = { name: 'Ana Souza', email: 'ana@example.test', document: { type: 'cpf', number: '11144477735' } };

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

let sim: PagarmeSimulator;
let provider: PagarmeProvider;
let seen: Seen[];
let now: Date;
let keys = 0;
const hooks: PagarmeHook[] = [];

beforeEach(async () => {
  seen = [];
  now = T0;
  hooks.length = 0;
  sim = await startPagarmeSimulator({
    accounts: [{ secretKey: SECRET_KEY, id: 'acc_platform', name: 'Loja' }],
    clock: () => now,
    settleAfterMs: 5_000,
    notify: (hook) => void hooks.push(hook),
    onRequest: (r) => void seen.push(r),
  });
  provider = new PagarmeProvider({ env: { PAGARME_API_URL: sim.apiUrl }, publicUrl: 'https://platform.test' }, { now: () => now });
});

afterEach(() => sim.close());

function call(overrides: Partial<ProviderCall> = {}): ProviderCall {
  keys += 1;
  return { idempotencyKey: `pagarme-test-${keys}`, signal: new AbortController().signal, credentials: CREDENTIALS, options: {}, ...overrides };
}

function request(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    chargeId: '0f4a3c2e-9d1b-4c8a-b7e6-5a4d3c2b1a09',
    merchantId: '00000000-0000-4000-8000-000000000002',
    amount: 1500,
    currency: 'BRL',
    capture: true,
    paymentType: 'credit',
    installments: 1,
    statementDescriptor: 'Loja Exemplo*',
    card: cardData('4000000000000010', CVV),
    payer: PAYER,
    ...overrides,
  };
}

function operation(transactionId: string, amount: number): OperationRequest {
  return { chargeId: 'c', transactionId, amount, currency: 'BRL' };
}

function query(transactionId: string, paymentType: QueryRequest['paymentType'] = 'credit'): QueryRequest {
  return { chargeId: 'c', transactionId, paymentType, amount: 1500, currency: 'BRL', now };
}

async function authorized(overrides: Partial<AuthorizeRequest> = {}): Promise<string> {
  const result = await provider.authorize(request(overrides), call());
  if (result.status !== 'authorized') throw new Error(`expected authorized, got ${result.status}`);
  return result.transactionId;
}

const lastBody = () => JSON.parse(seen.at(-1)!.body.toString()) as Record<string, unknown>;

describe('Pagar.me connector: credit card', () => {
  it('creates an order paid at once, as the API Reference names the fields, with Basic auth and an Idempotency-Key', async () => {
    const result = await provider.authorize(request(), call());
    expect(result).toMatchObject({ status: 'authorized', captured: true, networkResponseCode: '0000' });
    const id = (result as Extract<AuthorizeResult, { status: 'authorized' }>).transactionId;
    expect(id).toMatch(/^ch_/);
    expect(sim.charge(id)).toMatchObject({ status: 'paid', paid_amount: 1500 });
    const post = seen.at(-1)!;
    expect(post).toMatchObject({ method: 'POST', path: '/core/v5/orders' });
    expect(post.headers.authorization).toBe(`Basic ${Buffer.from(`${SECRET_KEY}:`).toString('base64')}`);
    expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f]{64}$/);
    expect(lastBody()).toEqual({
      code: '0f4a3c2e-9d1b-4c8a-b7e6-5a4d3c2b1a09',
      closed: true,
      items: [{ amount: 1500, description: 'Loja Exemplo*', quantity: 1, code: '0f4a3c2e-9d1b-4c8a-b7e6-5a4d3c2b1a09' }],
      customer: { name: 'Ana Souza', email: 'ana@example.test', document: '11144477735', type: 'individual' },
      payments: [
        {
          payment_method: 'credit_card',
          amount: 1500,
          credit_card: {
            installments: 1,
            capture: true,
            statement_descriptor: 'Loja Exemplo',
            card: { number: '4000000000000010', holder_name: 'Maria Souza', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvv: CVV },
          },
        },
      ],
      metadata: { charge_id: '0f4a3c2e-9d1b-4c8a-b7e6-5a4d3c2b1a09' },
    });
  });

  it('holds the amount without capture, captures part of it once, then refunds in parts', async () => {
    const id = await authorized({ capture: false });
    expect(sim.charge(id)).toMatchObject({ status: 'pending', last_transaction: { status: 'authorized_pending_capture' } });
    expect(await provider.query(query(id), call())).toMatchObject({ found: true, status: 'pre_authorized' });

    expect(await provider.capture(operation(id, 1000), call())).toMatchObject({ status: 'success', transactionId: id });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: `/core/v5/charges/${id}/capture` });
    expect(lastBody()).toEqual({ amount: 1000 });
    const again = await provider.capture(operation(id, 500), call());
    expect(again).toMatchObject({ status: 'failed', message: expect.stringContaining('HTTP 412') });

    expect(await provider.refund(operation(id, 400), call())).toMatchObject({ status: 'success' });
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', path: `/core/v5/charges/${id}` });
    expect(lastBody()).toEqual({ amount: 400 });
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'authorized', capturedAmount: 1000, refundedAmount: 400, providerStatus: 'paid (partial_refunded)' });
    expect(await provider.refund(operation(id, 601), call())).toMatchObject({ status: 'failed', message: expect.stringContaining('412') });
    expect(await provider.refund(operation(id, 600), call())).toMatchObject({ status: 'success' });
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'voided', capturedAmount: 1000, refundedAmount: 1000 });
  });

  it('cancels an authorization not captured', async () => {
    const id = await authorized({ capture: false });
    expect(await provider.cancel(operation(id, 1500), call())).toMatchObject({ status: 'success', transactionId: id });
    expect(sim.charge(id)).toMatchObject({ status: 'canceled', last_transaction: { status: 'voided' } });
    const voided = await provider.query(query(id), call());
    expect(voided).toMatchObject({ status: 'voided' });
    expect(voided.refundedAmount).toBeUndefined();
  });

  it('declines the failure card with the ABECS code it answered', async () => {
    const result = await provider.authorize(request({ card: cardData('4000000000000028', CVV) }), call());
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'generic', networkResponseCode: '05', transactionId: expect.stringMatching(/^ch_/) });
    expect((result as { message: string }).message).toContain('05');
    const id = (result as { transactionId: string }).transactionId;
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'failed', declinedCode: 'generic' });
  });

  it('leaves a processing card pending until the acquirer answers: paid, or failed', async () => {
    const good = await provider.authorize(request({ card: cardData('4000000000000036', CVV) }), call());
    const bad = await provider.authorize(request({ card: cardData('4000000000000044', CVV) }), call());
    expect(good).toMatchObject({ status: 'pending' });
    expect(bad).toMatchObject({ status: 'pending' });
    const goodId = (good as { transactionId: string }).transactionId;
    const badId = (bad as { transactionId: string }).transactionId;
    expect(await provider.query(query(goodId), call())).toMatchObject({ status: 'pending', providerStatus: 'processing (with_error)' });
    now = new Date(T0.getTime() + 5_000);
    expect(await provider.query(query(goodId), call())).toMatchObject({ status: 'authorized', capturedAmount: 1500 });
    expect(await provider.query(query(badId), call())).toMatchObject({ status: 'failed', declinedCode: 'generic' });
  });

  it('takes BRL only, and a charge without any customer is not sent', async () => {
    expect(await provider.authorize(request({ currency: 'USD' }), call())).toMatchObject({ status: 'declined', declinedCode: 'not_permitted' });
    const noOne = await provider.authorize(request({ paymentType: 'pix', card: undefined, payer: undefined, pix: { expiresIn: 600 } }), call());
    expect(noOne).toMatchObject({ status: 'declined', declinedCode: 'invalid_data', message: expect.stringContaining('customer') });
    expect(seen).toHaveLength(0);
  });

  it('takes credit, Pix and boleto, not debit', () => {
    expect(provider.paymentTypes).toEqual(['credit', 'pix', 'boleto']);
  });

  it('turns a validation error into a decline naming the field, never the card number', async () => {
    const result = await provider.authorize(request({ card: cardData('4000000000000011', CVV) }), call());
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
    const message = (result as { message: string }).message;
    expect(message).toContain('HTTP 422');
    expect(message).toContain('order.payments[0].credit_card.card.number');
    expect(message).not.toContain('4000000000000011');
    expect(message).not.toContain(CVV);
  });

  it('a key Pagar.me refuses is an invalid merchant, without the key in the message', async () => {
    const result = await provider.authorize(request(), call({ credentials: { ...CREDENTIALS, secretKey: 'sk_test_notthekeyatall00' } }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant', message: 'Pagar.me refused the secret key (HTTP 401)' });
  });

  it('refuses credentials that are not a secret key before sending anything, naming the field only', async () => {
    const wrong = call({ credentials: { type: 'PAGARME', secretKey: 'pk_test_publickey1234' } });
    await expect(provider.authorize(request(), wrong)).rejects.toThrow('PAGARME credentials are invalid: secretKey');
    await expect(provider.authorize(request(), wrong)).rejects.not.toThrow('pk_test_publickey1234');
    expect(seen).toHaveLength(0);
  });

  it('sends the same Idempotency-Key for a repeated attempt, and Pagar.me creates one order', async () => {
    const repeated = call();
    const first = await provider.authorize(request(), repeated);
    const second = await provider.authorize(request(), { ...repeated, signal: new AbortController().signal });
    expect(second).toEqual(first);
    expect(sim.ordersCreated).toBe(1);
    expect(seen[0]!.headers['idempotency-key']).toBe(seen[1]!.headers['idempotency-key']);
    expect(idempotencyKeyOf('k', 'order')).not.toBe(idempotencyKeyOf('k', 'capture'));
  });

  it('does not wait for an answer past the deadline: the order was sent, so its outcome is unknown', async () => {
    sim.stall(true);
    const controller = new AbortController();
    const pending = provider.authorize(request(), call({ signal: controller.signal }));
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ProviderOutcomeUnknownError);
    sim.stall(false);
  });

  it('a 5xx to the order is an unknown outcome (it may have been made); an unreachable host is a technical failure', async () => {
    const failing = createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"message":"An error has occurred."}');
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const port = (failing.address() as AddressInfo).port;
    try {
      const broken = new PagarmeProvider({ env: { PAGARME_API_URL: `http://127.0.0.1:${port}/core/v5` }, publicUrl: 'https://platform.test' });
      await expect(broken.authorize(request(), call())).rejects.toBeInstanceOf(ProviderOutcomeUnknownError);
    } finally {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    }
    const offline = new PagarmeProvider({ env: { PAGARME_API_URL: `http://127.0.0.1:${port}/core/v5` }, publicUrl: 'https://platform.test' });
    await expect(offline.authorize(request(), call())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('a charge Pagar.me does not know is not found', async () => {
    expect(await provider.query(query('ch_doesnotexist0000'), call())).toEqual({ found: false });
  });
});

describe('Pagar.me connector: Pix', () => {
  it('creates a pending Pix with its copia e cola and expiry, paid seconds later', async () => {
    const result = await provider.authorize(request({ paymentType: 'pix', card: undefined, pix: { expiresIn: 600 } }), call());
    expect(result).toMatchObject({ status: 'pending' });
    const pending = result as Extract<AuthorizeResult, { status: 'pending' }>;
    expect(brCodeValid(pending.pix!.qrCodeData)).toBe(true);
    expect(pending.pix!.qrCodeImageUrl).toMatch(/^https:\/\//);
    expect(pending.pix!.expiresAt).toEqual(new Date(T0.getTime() + 600_000));
    expect(lastBody().payments).toEqual([{ payment_method: 'pix', amount: 1500, pix: { expires_in: 600 } }]);
    expect(await provider.query(query(pending.transactionId, 'pix'), call())).toMatchObject({ status: 'pending', providerStatus: 'pending (waiting_payment)' });
    await sim.settle(pending.transactionId);
    expect(await provider.query(query(pending.transactionId, 'pix'), call())).toMatchObject({ status: 'authorized', capturedAmount: 1500 });
  });

  it('names the provider entry’s fallback customer when the charge has no payer', async () => {
    const options = { customer: { name: 'Loja Fallback', email: 'fin@loja.test', document: '11.222.333/0001-81' } };
    const result = await provider.authorize(request({ paymentType: 'pix', card: undefined, payer: undefined, pix: { expiresIn: 60 } }), call({ options }));
    expect(result).toMatchObject({ status: 'pending' });
    expect(lastBody().customer).toEqual({ name: 'Loja Fallback', email: 'fin@loja.test', document: '11222333000181', type: 'company' });
  });

  it('a Pix above the sandbox limit fails', async () => {
    expect(await provider.authorize(request({ paymentType: 'pix', card: undefined, amount: 50_001, pix: { expiresIn: 60 } }), call())).toMatchObject({ status: 'declined', declinedCode: 'generic' });
  });
});

describe('Pagar.me connector: boleto', () => {
  it('creates a pending boleto with its line, its bar code and due date, paid when conciliated', async () => {
    const result = await provider.authorize(
      request({ paymentType: 'boleto', card: undefined, boleto: { expiresDate: '2026-11-20', instructions: 'Não receber após o vencimento' } }),
      call(),
    );
    expect(result).toMatchObject({ status: 'pending' });
    const boleto = (result as Extract<AuthorizeResult, { status: 'pending' }>).boleto!;
    expect(boleto.digitableLine).toMatch(/^\d{47}$/);
    expect(boleto.barcodeData).toMatch(/^0019\d{40}$/);
    expect(boleto.barcodeData.slice(9, 19)).toBe('0000001500');
    // The general check digit (position 5) is the módulo 11 of the other 43 digits.
    const rest = boleto.barcodeData.slice(0, 4) + boleto.barcodeData.slice(5);
    let sum = 0;
    [...rest].reverse().forEach((d, i) => (sum += Number(d) * ((i % 8) + 2)));
    const dv = 11 - (sum % 11);
    expect(boleto.barcodeData[4]).toBe(dv === 0 || dv === 10 || dv === 11 ? '1' : String(dv));
    expect(boleto.expiresDate).toBe('2026-11-20');
    expect(boleto.barcodeImageUrl).toMatch(/^https:\/\//);
    expect(lastBody().payments).toEqual([{ payment_method: 'boleto', amount: 1500, boleto: { due_at: '2026-11-20T00:00:00Z', instructions: 'Não receber após o vencimento', type: 'DM' } }]);
    const id = (result as { transactionId: string }).transactionId;
    await sim.settle(id);
    expect(await provider.query(query(id, 'boleto'), call())).toMatchObject({ status: 'authorized', capturedAmount: 1500 });
  });

  it('a paid boleto is not refunded without a bank account: a failure naming the field', async () => {
    const result = await provider.authorize(request({ paymentType: 'boleto', card: undefined, boleto: { expiresDate: '2026-11-20' } }), call());
    const id = (result as { transactionId: string }).transactionId;
    await sim.settle(id);
    expect(await provider.refund(operation(id, 500), call())).toMatchObject({ status: 'failed', message: expect.stringContaining('bank_account') });
  });
});

describe('Pagar.me connector: definition, hosts and notifications', () => {
  it('is in the catalog with its credentials schema', () => {
    expect(connectorFor('PAGARME')).toBe(pagarmeConnector);
    const schema = pagarmeConnector.credentials;
    expect(schema.safeParse(CREDENTIALS).success).toBe(true);
    expect(schema.safeParse({ type: 'PAGARME', secretKey: 'sk_live0000000000000000' }).success).toBe(true);
    expect(schema.safeParse({ type: 'PAGARME', secretKey: 'pk_test_0000000000' }).success).toBe(false);
    expect(schema.safeParse({ ...CREDENTIALS, webhookUser: 'platform' }).success).toBe(false);
    expect(schema.safeParse({ ...CREDENTIALS, webhookUser: 'platform', webhookPassword: 'secret' }).success).toBe(true);
  });

  it('goes to the documented host unless the operator names another', () => {
    expect(pagarmeBaseUrl({}, 'sandbox')).toBe('https://api.pagar.me/core/v5');
    expect(pagarmeBaseUrl({}, undefined)).toBe('https://api.pagar.me/core/v5');
    expect(pagarmeBaseUrl({ PAGARME_API_URL: 'https://pagarme.internal/core/v5' }, 'production')).toBe('https://pagarme.internal/core/v5');
  });

  it('reads the charge a hook the simulator posted is about, to be queried back', async () => {
    const id = await authorized({ capture: false });
    await provider.capture(operation(id, 1500), call());
    await sim.settle();
    const hook = hooks.find((h) => h.type === 'charge.paid')!;
    const reading = pagarmeNotifications.read({ headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(JSON.stringify(hook)), query: {} }, CREDENTIALS);
    expect(reading).toEqual({ transactions: [{ transactionId: id }], reply: { status: 200 } });
  });

  it('checks the webhook Basic credentials when the entry has them', () => {
    const credentials = { ...CREDENTIALS, webhookUser: 'platform', webhookPassword: 'hook-secret' };
    const body = Buffer.from(JSON.stringify({ id: 'hook_abc123', type: 'charge.refunded', created_at: '2026-11-10T15:00:00Z', data: { id: 'ch_abc123' } }));
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    expect(pagarmeNotifications.read({ headers: { Authorization: basic('platform', 'hook-secret') }, rawBody: body, query: {} }, credentials).transactions).toEqual([{ transactionId: 'ch_abc123' }]);
    const refused: Array<Record<string, string>> = [{}, { authorization: basic('platform', 'wrong') }, { authorization: 'Bearer hook-secret' }];
    for (const headers of refused) {
      expect(() => pagarmeNotifications.read({ headers, rawBody: body, query: {} }, credentials)).toThrow(NotificationRefusedError);
    }
    let refusal: unknown;
    try {
      pagarmeNotifications.read({ headers: { authorization: basic('platform', 'wrong') }, rawBody: body, query: {} }, credentials);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(NotificationRefusedError);
    expect((refusal as Error).message).not.toContain('hook-secret');
    expect((refusal as Error).message).not.toContain('wrong');
  });

  it('reads an order hook by its charges, acknowledges other objects, and refuses what Pagar.me never posts', () => {
    const read = (body: unknown) => pagarmeNotifications.read({ headers: {}, rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), query: {} }, CREDENTIALS);
    expect(read({ id: 'hook_1', type: 'order.paid', data: { id: 'or_1', charges: [{ id: 'ch_a1' }, { id: 'ch_b2' }] } }).transactions).toEqual([{ transactionId: 'ch_a1' }, { transactionId: 'ch_b2' }]);
    expect(read({ id: 'hook_2', type: 'customer.created', data: { id: 'cus_1' } })).toEqual({ transactions: [], reply: { status: 200 } });
    for (const bad of ['not json', '[]', { type: 'charge.paid', data: { id: 'ch_1' } }, { id: 'hook_3', data: { id: 'ch_1' } }, { id: 'hook_4', type: 'charge.paid', data: { id: 'or_1' } }, { id: 'hook_5', type: 'charge.paid' }]) {
      expect(() => read(bad)).toThrow(NotificationRefusedError);
    }
  });
});

describe('Pagar.me connector: the lookup of an attempt whose outcome is unknown', () => {
  const lookup = (request: LookupRequest, c: ProviderCall) => provider.lookup(request, c);

  it('finds the order the attempt created by its code ("Listar pedidos") and reads it as the order’s answer', async () => {
    const sale = request({ chargeId: 'b2d1c0e9-1111-4c8a-b7e6-5a4d3c2b1a09' });
    const c = call();
    const answered = await provider.authorize(sale, c);
    expect(answered).toMatchObject({ status: 'authorized', captured: true });
    const found = await lookup({ authorization: sale, now }, c);
    expect(found).toEqual({ found: true, result: answered });
    const get = seen.at(-1)!;
    expect(get).toMatchObject({ method: 'GET', path: '/core/v5/orders' });
    expect(get.headers['idempotency-key']).toBeUndefined();
  });

  it('finds a declined order as the decline it was', async () => {
    const sale = request({ chargeId: 'b2d1c0e9-2222-4c8a-b7e6-5a4d3c2b1a09', card: cardData('4000000000000028', CVV) });
    const c = call();
    const answered = await provider.authorize(sale, c);
    expect(answered.status).toBe('declined');
    expect(await lookup({ authorization: sale, now }, c)).toEqual({ found: true, result: answered });
  });

  it('is not found when Pagar.me has no order with that code, and another account’s orders are not seen', async () => {
    const sale = request({ chargeId: 'b2d1c0e9-3333-4c8a-b7e6-5a4d3c2b1a09' });
    expect(await lookup({ authorization: sale, now }, call())).toEqual({ found: false });
    await provider.authorize(request({ chargeId: 'b2d1c0e9-4444-4c8a-b7e6-5a4d3c2b1a09' }), call());
    expect(await lookup({ authorization: sale, now }, call())).toEqual({ found: false });
  });

  it('throws when it cannot tell (a refused key)', async () => {
    const sale = request({ chargeId: 'b2d1c0e9-5555-4c8a-b7e6-5a4d3c2b1a09' });
    await expect(lookup({ authorization: sale, now }, call({ credentials: { ...CREDENTIALS, secretKey: 'sk_test_unknown' } }))).rejects.toThrow();
  });
});

describe('Pagar.me connector: an answer that may hide a sale', () => {
  async function answering(status: number, body: string, contentType: string): Promise<PagarmeProvider> {
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    afterEachClose.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return new PagarmeProvider({ env: { PAGARME_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/core/v5` }, publicUrl: 'https://platform.test' });
  }
  const afterEachClose: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of afterEachClose.splice(0)) await close();
  });

  it.each([
    ['an HTML page', 200, '<html><body>Bad gateway</body></html>', 'text/html'],
    ['an empty 200', 200, '', 'application/json'],
    ['truncated JSON', 200, '{"id":"or_1","status":"paid","charges":[{"id":"ch_1","sta', 'application/json'],
    ['an order without charges', 200, '{"id":"or_1","status":"paid"}', 'application/json'],
    ['a charge status no one documents', 201, '{"id":"or_1","charges":[{"id":"ch_1","status":"mystery"}]}', 'application/json'],
  ])('%s is an unknown outcome, never a decline', async (_name, status, body, contentType) => {
    const unreadable = await answering(status, body, contentType);
    await expect(unreadable.authorize(request(), call())).rejects.toBeInstanceOf(ProviderOutcomeUnknownError);
  });

  it('a documented failed charge stays a decline', async () => {
    const failed = await answering(200, JSON.stringify({ id: 'or_1', status: 'failed', charges: [{ id: 'ch_1', status: 'failed', last_transaction: { status: 'not_authorized', acquirer_return_code: '1000' } }] }), 'application/json');
    expect(await failed.authorize(request(), call())).toMatchObject({ status: 'declined', transactionId: 'ch_1' });
  });
});

describe('Pagar.me connector: the customer of an order', () => {
  const fallback = {
    customer: {
      name: 'Loja Fallback',
      email: 'fin@loja.test',
      document: '11.222.333/0001-81',
      phones: { mobile_phone: { country_code: '55', area_code: '11', number: '999999999' } },
      address: { line_1: 'Rua A, 1', zip_code: '01001000', city: 'São Paulo', state: 'SP', country: 'BR' },
    },
  };

  it('a charge that names a payer sends the payer’s own data, never the fallback’s phones or address', async () => {
    expect(await provider.authorize(request(), call({ options: fallback }))).toMatchObject({ status: 'authorized' });
    expect(lastBody().customer).toEqual({ name: 'Ana Souza', email: 'ana@example.test', document: '11144477735', type: 'individual' });
  });

  it('a charge that names no payer sends the fallback, phones and address included', async () => {
    expect(await provider.authorize(request({ payer: undefined }), call({ options: fallback }))).toMatchObject({ status: 'authorized' });
    expect(lastBody().customer).toEqual({ name: 'Loja Fallback', email: 'fin@loja.test', document: '11222333000181', type: 'company', phones: fallback.customer.phones, address: fallback.customer.address });
  });
});
