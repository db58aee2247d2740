import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { MERCADOPAGO_CARDHOLDER_OUTCOMES, MERCADOPAGO_TEST_CARDS, MERCADOPAGO_TEST_CPF, startMercadoPagoSimulator, type MercadoPagoNotification, type MercadoPagoSimulator } from '@platform/simulators';
import { AppConfig } from 'mercadopago/dist/utils/config';
import { connectorFor, CONNECTORS } from '../../../src/modules/connectors/catalog';
import { mercadoPagoConnector } from '../../../src/modules/connectors/mercadopago';
import { atBaseUrl, mercadoPagoBaseUrl, MercadoPagoProvider } from '../../../src/modules/connectors/mercadopago/connector';
import { MERCADOPAGO_DECLINES } from '../../../src/modules/connectors/mercadopago/declineTable';
import { idempotencyKeyOf } from '../../../src/modules/connectors/mercadopago/transformers';
import {
  NotificationRefusedError,
  ProviderOutcomeUnknownError,
  ProviderUnavailableError,
  type AuthorizeRequest,
  type AuthorizeResult,
  type OperationRequest,
  type ProviderCall,
  type QueryRequest,
} from '../../../src/modules/connectors/domain/types';
import type { CardData } from '../../../src/modules/vault/domain/card';

const ACCESS_TOKEN = 'TEST-1234567890123456-031012-0123456789abcdef0123456789abcdef-123456789';
const WEBHOOK_SECRET = 'webhook-secret-of-the-application';
const DOCUMENTED = 'https://api.mercadopago.com';

function card(holderName: string, test: { number: string; securityCode: string; expirationMonth: number; expirationYear: number } = MERCADOPAGO_TEST_CARDS.mastercard, brand: CardData['brand'] = 'mastercard'): CardData {
  return {
    number: test.number,
    cvv: test.securityCode,
    expirationMonth: test.expirationMonth,
    expirationYear: test.expirationYear,
    holderName,
    brand,
    first6: test.number.slice(0, 6),
    last4: test.number.slice(-4),
    fingerprint: 'fp',
  };
}

describe('Mercado Pago connector against its simulator', () => {
  let simulator: MercadoPagoSimulator;
  let provider: MercadoPagoProvider;
  const now = new Date('2026-03-10T12:00:00Z');
  const notifications: MercadoPagoNotification[] = [];
  let attempt = 0;

  beforeAll(async () => {
    simulator = await startMercadoPagoSimulator({ clock: () => now, accounts: [{ accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET }], notify: (n) => void notifications.push(n) });
    provider = new MercadoPagoProvider({ env: { MERCADOPAGO_API_URL: simulator.url }, publicUrl: 'https://api.example.test' }, { now: () => now });
  });
  afterAll(() => simulator.close());

  const credentials = (accessToken = ACCESS_TOKEN) => ({ type: 'MERCADOPAGO', accessToken, webhookSecret: WEBHOOK_SECRET, environment: 'sandbox' });
  const call = (overrides: Partial<ProviderCall> = {}): ProviderCall => ({
    idempotencyKey: `charge-${++attempt}:attempt:1`,
    signal: AbortSignal.timeout(5000),
    credentials: credentials(),
    options: {},
    ...overrides,
  });
  const request = (overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
    chargeId: `00000000-0000-4000-8000-${String(attempt).padStart(12, '0')}`,
    merchantId: '00000000-0000-4000-8000-000000000002',
    amount: 1050,
    currency: 'BRL',
    capture: true,
    paymentType: 'credit',
    installments: 1,
    statementDescriptor: 'LOJA EXEMPLO',
    card: card('APRO'),
    payer: { name: 'Maria Souza', email: 'maria@example.com', document: { type: 'cpf', number: MERCADOPAGO_TEST_CPF } },
    ...overrides,
  });
  const operation = (transactionId: string, amount: number): OperationRequest => ({ chargeId: 'c', transactionId, amount, currency: 'BRL' });
  const query = (transactionId: string): QueryRequest => ({ chargeId: 'c', transactionId, paymentType: 'credit', amount: 1050, currency: 'BRL', now });
  const idOf = (result: AuthorizeResult): string => {
    if (result.status !== 'authorized' && result.status !== 'pending') throw new Error(`expected an authorization, got ${result.status}`);
    return result.transactionId;
  };

  it('is in the catalog and checks provider entries with its credentials schema', () => {
    expect(CONNECTORS).toContain(mercadoPagoConnector);
    expect(connectorFor('MERCADOPAGO')).toBe(mercadoPagoConnector);
    const [adapter] = mercadoPagoConnector.create({ env: {}, publicUrl: 'https://api.example.test' });
    expect(adapter).toMatchObject({ type: 'MERCADOPAGO', paymentTypes: ['credit', 'debit', 'pix'] });
    expect(mercadoPagoConnector.credentials.safeParse(credentials()).success).toBe(true);
    expect(mercadoPagoConnector.credentials.safeParse({ ...credentials(), accessToken: 'APP_USR-1234567890-abcdef' }).success).toBe(true);
    expect(mercadoPagoConnector.credentials.safeParse({ type: 'MERCADOPAGO', accessToken: ACCESS_TOKEN }).success).toBe(false);
    expect(mercadoPagoConnector.credentials.safeParse({ ...credentials(), accessToken: 'sk_live_123456789' }).success).toBe(false);
    expect(mercadoPagoConnector.credentials.safeParse({ ...credentials(), environment: 'staging' }).success).toBe(false);
  });

  it('talks to the documented host unless the operator names another', () => {
    expect(mercadoPagoBaseUrl({}, 'sandbox')).toBe(DOCUMENTED);
    expect(mercadoPagoBaseUrl({}, undefined)).toBe(DOCUMENTED);
    expect(mercadoPagoBaseUrl({ MERCADOPAGO_API_URL: simulator.url }, 'production')).toBe(simulator.url);
  });

  it('points the SDK at the entry’s host for one call only, so the process-wide static reads the documented host between calls', async () => {
    const other = await startMercadoPagoSimulator({ clock: () => now, accounts: [{ accessToken: ACCESS_TOKEN }] });
    try {
      const elsewhere = new MercadoPagoProvider({ env: { MERCADOPAGO_API_URL: other.url }, publicUrl: 'https://api.example.test' }, { now: () => now });
      const here = simulator.paymentsCreated;
      const pending = [provider.authorize(request(), call()), elsewhere.authorize(request(), call()), provider.authorize(request(), call())];
      expect(AppConfig.BASE_URL).toBe(DOCUMENTED);
      const results = await Promise.all(pending);
      expect(results.map((r) => r.status)).toEqual(['authorized', 'authorized', 'authorized']);
      expect(simulator.paymentsCreated).toBe(here + 2);
      expect(other.paymentsCreated).toBe(1);
      expect(AppConfig.BASE_URL).toBe(DOCUMENTED);
      const started = atBaseUrl(other.url, () => Promise.resolve(AppConfig.BASE_URL));
      expect(AppConfig.BASE_URL).toBe(DOCUMENTED);
      expect(await started).toBe(other.url);
    } finally {
      await other.close();
    }
  });

  it('tokenizes the card, pays in decimal reais with a derived X-Idempotency-Key, and the query says authorized', async () => {
    const paymentCall = call();
    const result = await provider.authorize(request({ amount: 2099 }), paymentCall);
    expect(result).toMatchObject({ status: 'authorized', captured: true, cvvChecked: true, networkResponseCode: 'accredited' });
    const id = idOf(result);
    expect(simulator.payment(id)).toMatchObject({ amount: 2099, status: 'approved', paymentMethodId: 'master', installments: 1, statementDescriptor: 'LOJA EXEMPLO' });
    const writes = simulator.requests.filter((r) => r.method === 'POST').slice(-2);
    expect(writes).toEqual([
      { method: 'POST', path: '/v1/card_tokens', idempotencyKey: idempotencyKeyOf(paymentCall.idempotencyKey, 'card-token') },
      { method: 'POST', path: '/v1/payments', idempotencyKey: idempotencyKeyOf(paymentCall.idempotencyKey, 'payment') },
    ]);
    expect(await provider.query(query(id), call())).toEqual({ found: true, status: 'authorized', providerStatus: 'approved/accredited', capturedAmount: 2099 });
  });

  it('answers a repeated attempt with the same payment, created once', async () => {
    const repeated = call();
    const before = simulator.paymentsCreated;
    const first = await provider.authorize(request(), repeated);
    const second = await provider.authorize(request(), { ...repeated, signal: AbortSignal.timeout(5000) });
    expect(idOf(second)).toBe(idOf(first));
    expect(simulator.paymentsCreated).toBe(before + 1);
  });

  it('maps every outcome a cardholder name forces', async () => {
    for (const [code, outcome] of Object.entries(MERCADOPAGO_CARDHOLDER_OUTCOMES)) {
      const result = await provider.authorize(request({ card: card(`${code} Souza`) }), call());
      if (outcome.status === 'approved') expect([code, result.status]).toEqual([code, 'authorized']);
      else if (outcome.status === 'in_process') expect([code, result.status]).toEqual([code, 'pending']);
      else {
        expect([code, result]).toMatchObject([code, { status: 'declined', declinedCode: MERCADOPAGO_DECLINES[outcome.statusDetail]!.declinedCode }]);
        if (result.status === 'declined') expect(result.message).toContain(outcome.statusDetail);
      }
    }
  });

  it('leaves a payment in process pending until it is decided, then the query says so', async () => {
    const id = idOf(await provider.authorize(request({ card: card('CONT') }), call()));
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'pending', providerStatus: 'in_process/pending_contingency' });
    simulator.review(id, true);
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'authorized', capturedAmount: 1050 });
  });

  it('holds without capture, captures part of it once in decimal reais, then refunds in parts', async () => {
    const id = idOf(await provider.authorize(request({ amount: 10000, capture: false }), call()));
    expect(simulator.payment(id)).toMatchObject({ status: 'authorized', amount: 10000 });
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'pre_authorized', providerStatus: 'authorized/pending_capture' });
    expect(await provider.capture(operation(id, 12000), call())).toMatchObject({ status: 'failed', message: expect.stringContaining('4037') });
    expect(await provider.capture(operation(id, 6000), call())).toEqual({ status: 'success', transactionId: id, networkResponseCode: 'accredited', networkAuthorizationCode: expect.any(String) });
    expect(simulator.payment(id)).toMatchObject({ status: 'approved', amount: 6000, captured: true });
    expect(await provider.capture(operation(id, 6000), call())).toMatchObject({ status: 'failed' });
    expect(await provider.refund(operation(id, 2550), call())).toMatchObject({ status: 'success' });
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'authorized', capturedAmount: 6000, refundedAmount: 2550 });
    expect(await provider.refund(operation(id, 5000), call())).toMatchObject({ status: 'failed' });
    expect(await provider.refund(operation(id, 3450), call())).toMatchObject({ status: 'success' });
    expect(await provider.query(query(id), call())).toEqual({ found: true, status: 'voided', providerStatus: 'refunded/refunded', capturedAmount: 6000, refundedAmount: 6000 });
  });

  it('takes a refund Mercado Pago settles later as pending, and the query says refund_pending until it is done', async () => {
    const id = idOf(await provider.authorize(request({ amount: 4000 }), call()));
    simulator.holdRefunds(true);
    try {
      expect(await provider.refund(operation(id, 4000), call())).toMatchObject({ status: 'pending', message: 'Mercado Pago refund in_process' });
    } finally {
      simulator.holdRefunds(false);
    }
    expect(await provider.query(query(id), call())).toEqual({ found: true, status: 'refund_pending', providerStatus: 'approved/accredited', capturedAmount: 4000 });
    simulator.settleRefunds(id);
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'voided', refundedAmount: 4000 });
  });

  it('cancels an authorization that was not captured, and refuses to cancel what was', async () => {
    const held = idOf(await provider.authorize(request({ capture: false }), call()));
    expect(await provider.cancel(operation(held, 1050), call())).toEqual({ status: 'success', transactionId: held });
    expect(await provider.query(query(held), call())).toMatchObject({ status: 'canceled', providerStatus: 'cancelled/by_collector' });
    const captured = idOf(await provider.authorize(request(), call()));
    expect(await provider.cancel(operation(captured, 1050), call())).toMatchObject({ status: 'failed', message: expect.stringContaining('HTTP 400') });
  });

  it('pays a debit card with its deb payment method, captured, in one installment', async () => {
    const result = await provider.authorize(request({ paymentType: 'debit', capture: false, installments: 3, card: card('APRO', MERCADOPAGO_TEST_CARDS.eloDebit, 'elo') }), call());
    expect(result).toMatchObject({ status: 'authorized', captured: true });
    expect(simulator.payment(idOf(result))).toMatchObject({ paymentMethodId: 'debelo', paymentTypeId: 'debit_card', installments: 1 });
  });

  it('creates a Pix whose copia e cola is the pending charge’s instructions, paid later as its notification and query say', async () => {
    const result = await provider.authorize(request({ paymentType: 'pix', card: undefined, amount: 2500, pix: { expiresIn: 7200 } }), call());
    expect(result).toMatchObject({ status: 'pending', pix: { qrCodeData: expect.stringMatching(/^000201.*540525\.00/), qrCodeImageUrl: expect.stringMatching(/^data:image\/png;base64,/) } });
    if (result.status !== 'pending') return;
    expect(result.pix?.expiresAt.toISOString()).toBe(new Date(now.getTime() + 7200_000).toISOString());
    expect(simulator.payment(result.transactionId)).toMatchObject({ paymentMethodId: 'pix', amount: 2500, payer: { email: 'maria@example.com', identification: { type: 'CPF', number: MERCADOPAGO_TEST_CPF } } });
    expect(await provider.query({ ...query(result.transactionId), paymentType: 'pix' }, call())).toMatchObject({ status: 'pending', providerStatus: 'pending/pending_waiting_transfer' });

    notifications.length = 0;
    simulator.payPix(result.transactionId);
    const posted = notifications[0]!;
    const reading = provider.notifications.read({ headers: posted.headers, rawBody: posted.rawBody, query: posted.query }, credentials());
    expect(reading).toEqual({ transactions: [{ transactionId: result.transactionId }], reply: { status: 200 } });
    expect(await provider.query({ ...query(result.transactionId), paymentType: 'pix' }, call())).toMatchObject({ status: 'authorized', capturedAmount: 2500 });
    expect(await provider.refund(operation(result.transactionId, 2500), call())).toMatchObject({ status: 'success' });
  });

  it('refuses a notification that is not signed with the entry’s secret, or names another payment than it signed', async () => {
    const id = idOf(await provider.authorize(request(), call()));
    const posted = simulator.notification(id);
    const read = (n: { headers: Record<string, string>; query: Record<string, string>; rawBody: Buffer }, secret = WEBHOOK_SECRET) =>
      provider.notifications.read(n, { ...credentials(), webhookSecret: secret });
    expect(read(posted)).toEqual({ transactions: [{ transactionId: String(id) }], reply: { status: 200 } });
    expect(() => read(posted, 'another-secret')).toThrow(new NotificationRefusedError('Mercado Pago notification refused: SignatureMismatch'));
    expect(() => read({ ...posted, query: { ...posted.query, 'data.id': '999' } })).toThrow(NotificationRefusedError);
    expect(() => read({ ...posted, headers: { ...posted.headers, 'x-request-id': 'another-request' } })).toThrow(NotificationRefusedError);
    const { 'x-signature': _signature, ...unsigned } = posted.headers;
    expect(() => read({ ...posted, headers: unsigned })).toThrow(new NotificationRefusedError('Mercado Pago notification refused: MissingSignatureHeader'));
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(posted.rawBody.toString('utf8')), data: { id: '42' } }));
    expect(() => read({ ...posted, rawBody: forgedBody })).toThrow(NotificationRefusedError);
    try {
      read(posted, 'another-secret');
    } catch (error) {
      expect(String(error)).not.toContain('another-secret');
      expect(String(error)).not.toContain(posted.headers['x-signature']!.split('v1=')[1]!);
    }
  });

  it('declines what it cannot send without calling Mercado Pago', async () => {
    const before = simulator.requests.length;
    expect(await provider.authorize(request({ payer: undefined }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
    expect(await provider.authorize(request({ currency: 'USD' }), call())).toMatchObject({ status: 'declined', declinedCode: 'not_permitted' });
    expect(await provider.authorize(request({ card: card('APRO', { number: '36490102462661', securityCode: '123', expirationMonth: 11, expirationYear: 2030 }, 'diners') }), call())).toMatchObject({
      status: 'declined',
      declinedCode: 'card_not_supported',
    });
    expect(simulator.requests.length).toBe(before);
    const fallback = await provider.authorize(request({ payer: undefined }), call({ options: { payerEmail: 'pagamentos@loja.example' } }));
    expect(simulator.payment(idOf(fallback))).toMatchObject({ payer: { email: 'pagamentos@loja.example' } });
  });

  it('turns a refused access token into a final decline that names no secret, and an unknown payment into not found', async () => {
    const wrong = 'TEST-0000000000000000-031012-ffffffffffffffffffffffffffffffff-000000000';
    const result = await provider.authorize(request(), call({ credentials: credentials(wrong) }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant', message: 'Mercado Pago refused the access token (HTTP 401)' });
    expect(JSON.stringify(result)).not.toContain(wrong);
    expect(await provider.query(query('1'), call())).toEqual({ found: false });
    const refused = await provider.authorize(request({ card: { ...card('APRO'), number: '5031433215406352' } }), call());
    expect(refused).toMatchObject({ status: 'declined', declinedCode: 'invalid_data', message: expect.stringContaining('E301') });
    expect(JSON.stringify(refused)).not.toContain('5031433215406352');
  });

  it('gives up when Mercado Pago does not answer in time, and when nothing listens', async () => {
    simulator.stall(true);
    try {
      await expect(provider.authorize(request(), call({ signal: AbortSignal.timeout(200) }))).rejects.toThrow(ProviderUnavailableError);
    } finally {
      simulator.stall(false);
    }
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const before = simulator.requests.length;
    await expect(provider.query(query('1'), call({ signal: AbortSignal.abort() }))).rejects.toThrow(ProviderUnavailableError);
    expect(simulator.requests.length).toBe(before);
    const nowhere = new MercadoPagoProvider({ env: { MERCADOPAGO_API_URL: `http://127.0.0.1:${port}` }, publicUrl: 'https://api.example.test' });
    const error = await nowhere.query(query('1'), call()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(String(error)).not.toContain(ACCESS_TOKEN);
  });
  it('finds the payment of an attempt whose outcome is unknown by its external_reference ("Search payments"), read as its creation answered', async () => {
    const c = call();
    const sale = request();
    const answered = await provider.authorize(sale, c);
    expect(answered).toMatchObject({ status: 'authorized', captured: true });
    expect(await provider.lookup({ authorization: sale, now }, c)).toEqual({ found: true, result: answered });
    const searched = simulator.requests.at(-1)!;
    expect(searched).toMatchObject({ method: 'GET', path: '/v1/payments/search' });
    expect(searched.idempotencyKey).toBeUndefined();
    const declined = request({ chargeId: 'c0ffee00-2222-4c8a-b7e6-5a4d3c2b1a09', card: card('OTHE') });
    const refused = await provider.authorize(declined, call());
    expect(refused).toMatchObject({ status: 'declined' });
    expect(await provider.lookup({ authorization: declined, now }, call())).toEqual({ found: true, result: refused });
  });

  it('is not found when Mercado Pago has no payment with that external_reference (another seller’s are not seen), and throws when it cannot tell', async () => {
    const sale = request({ chargeId: '00000000-0000-4000-8000-00000000dead' });
    expect(await provider.lookup({ authorization: sale, now }, call())).toEqual({ found: false });
    await provider.authorize(sale, call());
    await expect(provider.lookup({ authorization: sale, now }, call({ credentials: credentials('TEST-0000000000000000-000000-00000000000000000000000000000000-000000000') }))).rejects.toThrow();
  });

  it('a payment created but answered late is an unknown outcome; a card token answered late is not', async () => {
    const c = call({ signal: AbortSignal.timeout(300) });
    simulator.stall(true);
    try {
      await expect(provider.authorize(request(), c)).rejects.toBeInstanceOf(ProviderUnavailableError);
      await expect(provider.authorize(request(), c)).rejects.not.toBeInstanceOf(ProviderOutcomeUnknownError);
    } finally {
      simulator.stall(false);
    }
  });
});

describe('Mercado Pago connector: an answer to the payment that may hide a sale', () => {
  const servers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of servers.splice(0)) await close();
  });

  /** A host that tokenizes the card as documented, then answers the payment with `status` and `body`. */
  async function answering(status: number, body: string, contentType: string): Promise<MercadoPagoProvider> {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url?.startsWith('/v1/card_tokens')) {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'ff8080814c11e237014c1ff593b57b4d', status: 'active' }));
          return;
        }
        res.writeHead(status, { 'content-type': contentType });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    return new MercadoPagoProvider({ env: { MERCADOPAGO_API_URL: `http://127.0.0.1:${port}` }, publicUrl: 'https://api.example.test' });
  }
  const call = (): ProviderCall => ({ idempotencyKey: 'charge-x:attempt:1', signal: AbortSignal.timeout(5000), credentials: { type: 'MERCADOPAGO', accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET }, options: {} });
  const request = (): AuthorizeRequest => ({
    chargeId: '00000000-0000-4000-8000-00000000beef',
    merchantId: '00000000-0000-4000-8000-000000000002',
    amount: 1050,
    currency: 'BRL',
    capture: true,
    paymentType: 'credit',
    installments: 1,
    card: card('APRO'),
    payer: { email: 'maria@example.com' },
  });

  it.each([
    ['an HTML page', 200, '<html><body>Bad gateway</body></html>', 'text/html'],
    ['an empty 200', 200, '', 'application/json'],
    ['truncated JSON', 201, '{"id":1234,"status":"appr', 'application/json'],
    ['a payment without status', 201, '{"id":1234}', 'application/json'],
    ['a 500 after the payment was sent', 500, '{"message":"internal_error","status":500}', 'application/json'],
    ['a 502 page', 502, '<html>Bad Gateway</html>', 'text/html'],
  ])('%s is an unknown outcome, never a decline', async (_name, status, body, contentType) => {
    const unreadable = await answering(status, body, contentType);
    await expect(unreadable.authorize(request(), call())).rejects.toBeInstanceOf(ProviderOutcomeUnknownError);
  });

  it('a documented rejection stays a decline', async () => {
    const rejected = await answering(201, JSON.stringify({ id: 1234, status: 'rejected', status_detail: 'cc_rejected_insufficient_amount' }), 'application/json');
    expect(await rejected.authorize(request(), call())).toMatchObject({ status: 'declined', transactionId: '1234' });
  });
});
