import { createServer } from 'node:http';
import { brCodeValid, startCieloSimulator, type CieloNotification, type CieloSimulator } from '@platform/simulators';
import type { AuthorizeRequest, AuthorizeResult, OperationRequest, ProviderCall } from '../../../src/modules/connectors/domain/types';
import { ProviderOutcomeUnknownError, ProviderUnavailableError } from '../../../src/modules/connectors/domain/types';
import { connectorFor } from '../../../src/modules/connectors/catalog';
import { CieloProvider, cieloBaseUrl } from '../../../src/modules/connectors/cielo/connector';
import { cieloConnector } from '../../../src/modules/connectors/cielo';
import { cieloNotifications } from '../../../src/modules/connectors/cielo/notifications';
import { requestIdOf } from '../../../src/modules/connectors/cielo/transformers';
import { cardData } from '../../support/cards';
import manual from './fixtures/manual-request-fields.json';

const MERCHANT = { merchantId: '5bf5b74b-2f4b-4738-92cd-dba738ab058a', merchantKey: 'JVFMTZCHFMYKJNSAPXMOUMJTQLDKWFOVKISZXOLK' };
const CREDENTIALS = { type: 'CIELO', ...MERCHANT, environment: 'sandbox' };
const T0 = new Date('2026-03-10T15:00:00Z');
const CVV = '917';

interface Seen {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: Buffer;
}

let sim: CieloSimulator;
let provider: CieloProvider;
let seen: Seen[];
let coin: number;
let keys = 0;
const notifications: CieloNotification[] = [];

async function startWith(options: { latencyMs?: number; onRequest?: (r: Seen) => void } = {}) {
  sim = await startCieloSimulator({
    merchants: [MERCHANT],
    clock: () => T0,
    random: () => coin,
    notify: (n) => void notifications.push(n),
    onRequest: (r) => {
      seen.push(r);
      options.onRequest?.(r);
    },
    ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
  });
  provider = new CieloProvider(
    { env: { CIELO_API_URL: sim.url, CIELO_QUERY_URL: sim.url, CIELO_BRASPAG_API_URL: sim.url, CIELO_BRASPAG_QUERY_URL: sim.url }, publicUrl: 'https://platform.test' },
    { now: () => T0 },
  );
}

beforeEach(async () => {
  seen = [];
  coin = 0.1;
  notifications.length = 0;
  await startWith();
});

afterEach(() => sim.close());

function call(overrides: Partial<ProviderCall> = {}): ProviderCall {
  keys += 1;
  return { idempotencyKey: `cielo-test-${keys}`, signal: new AbortController().signal, credentials: CREDENTIALS, options: {}, ...overrides };
}

function cardEnding(last: string): string {
  return `455187000000018${last}`;
}

function request(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    chargeId: '0f4a3c2e-9d1b-4c8a-b7e6-5a4d3c2b1a09',
    merchantId: '00000000-0000-4000-8000-000000000002',
    amount: 1500,
    currency: 'BRL',
    capture: false,
    paymentType: 'credit',
    installments: 1,
    statementDescriptor: 'Loja Exemplo*',
    card: cardData(cardEnding('1'), CVV),
    ...overrides,
  };
}

function operation(transactionId: string, amount: number): OperationRequest {
  return { chargeId: 'c', transactionId, amount, currency: 'BRL' };
}

async function authorized(overrides: Partial<AuthorizeRequest> = {}): Promise<string> {
  const result = await provider.authorize(request(overrides), call());
  if (result.status !== 'authorized') throw new Error(`expected authorized, got ${result.status}`);
  return result.transactionId;
}

/** Every field path of a JSON body, e.g. Payment.CreditCard.Brand. */
function paths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => paths(inner, prefix ? `${prefix}.${key}` : key));
}

describe('Cielo connector: credit card', () => {
  it('authorizes without capture, as the manual names the fields', async () => {
    const result = await provider.authorize(request(), call());
    expect(result).toMatchObject({ status: 'authorized', captured: false, networkResponseCode: '4' });
    const id = (result as Extract<AuthorizeResult, { status: 'authorized' }>).transactionId;
    expect(sim.sale(id)?.status).toBe(1);
    const post = seen.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('/1/sales/');
    const body = JSON.parse(post.body.toString()) as Record<string, unknown>;
    for (const path of paths(body)) expect(manual.creditCard).toContain(path);
    expect(body).toMatchObject({
      MerchantOrderId: '0f4a3c2e9d1b4c8ab7e65a4d3c2b1a09',
      Payment: { Type: 'CreditCard', Amount: 1500, Capture: false, Installments: 1, SoftDescriptor: 'Loja Exemplo', CreditCard: { Brand: 'Visa', SecurityCode: CVV } },
    });
    expect((body.Payment as { CreditCard: { ExpirationDate: string } }).CreditCard.ExpirationDate).toMatch(/^12\/\d{4}$/);
    for (const header of manual.headers) expect(Object.keys(post.headers)).toContain(header.toLowerCase());
    expect(post.headers.requestid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('authorizes with capture', async () => {
    const result = await provider.authorize(request({ capture: true }), call());
    expect(result).toMatchObject({ status: 'authorized', captured: true, networkResponseCode: '6' });
  });

  it('captures part of the authorization once', async () => {
    const id = await authorized();
    expect(await provider.capture(operation(id, 1000), call())).toMatchObject({ status: 'success', transactionId: id });
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', path: `/1/sales/${id}/capture`, query: '?amount=1000' });
    expect(sim.sale(id)).toMatchObject({ status: 2, capturedAmount: 1000 });
    const again = await provider.capture(operation(id, 500), call());
    expect(again).toMatchObject({ status: 'failed', message: expect.stringContaining('308') });
  });

  it('cancels an authorization not captured', async () => {
    const id = await authorized();
    expect(await provider.cancel(operation(id, 1500), call())).toMatchObject({ status: 'success' });
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', path: `/1/sales/${id}/void`, query: '' });
    expect(sim.sale(id)?.status).toBe(10);
  });

  it('refunds part of a capture, refuses more than is left, and the query shows what was refunded', async () => {
    const id = await authorized({ capture: true });
    expect(await provider.refund(operation(id, 500), call())).toMatchObject({ status: 'success' });
    expect(seen.at(-1)).toMatchObject({ path: `/1/sales/${id}/void`, query: '?amount=500' });
    const over = await provider.refund(operation(id, 5000), call());
    expect(over).toMatchObject({ status: 'failed', declinedCode: 'invalid_amount', message: expect.stringContaining('51') });
    const query = await provider.query({ chargeId: 'c', transactionId: id, paymentType: 'credit', amount: 1500, currency: 'BRL', now: T0 }, call());
    expect(query).toMatchObject({ found: true, status: 'authorized', capturedAmount: 1500, refundedAmount: 500 });
    expect(query.providerStatus).toContain('PaymentConfirmed');
    expect(await provider.refund(operation(id, 1000), call())).toMatchObject({ status: 'success' });
    const voided = await provider.query({ chargeId: 'c', transactionId: id, paymentType: 'credit', amount: 1500, currency: 'BRL', now: T0 }, call());
    expect(voided).toMatchObject({ status: 'voided', refundedAmount: 1500 });
  });

  it('queries on the query host: a pre-authorization, and a sale Cielo does not know', async () => {
    const id = await authorized();
    const query = await provider.query({ chargeId: 'c', transactionId: id, paymentType: 'credit', amount: 1500, currency: 'BRL', now: T0 }, call());
    expect(query).toMatchObject({ found: true, status: 'pre_authorized' });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', path: `/1/sales/${id}` });
    const unknown = await provider.query({ chargeId: 'c', transactionId: '24bc8366-fc31-4d6c-8555-17049a836a07', paymentType: 'credit', amount: 1, currency: 'BRL', now: T0 }, call());
    expect(unknown).toEqual({ found: false });
  });

  it.each([
    ['0', { status: 'authorized' }],
    ['1', { status: 'authorized' }],
    ['4', { status: 'authorized' }],
    ['2', { status: 'declined', declinedCode: 'generic', networkResponseCode: '05' }],
    ['3', { status: 'declined', declinedCode: 'transaction_not_allowed', networkResponseCode: '57' }],
    ['5', { status: 'declined', declinedCode: 'restricted_card', networkResponseCode: '78' }],
    ['6', { status: 'declined', declinedCode: 'try_again', networkResponseCode: '99' }],
    ['7', { status: 'declined', declinedCode: 'restricted_card', networkResponseCode: '77' }],
    ['8', { status: 'declined', declinedCode: 'insufficient_funds', networkResponseCode: '70' }],
  ])('Simulado: a card ending %s', async (last, expected) => {
    expect(await provider.authorize(request({ card: cardData(cardEnding(last), CVV) }), call())).toMatchObject(expected);
  });

  it('Simulado: a card ending 9 is authorized or times out (a technical decline)', async () => {
    coin = 0.3;
    expect(await provider.authorize(request({ card: cardData(cardEnding('9'), CVV) }), call())).toMatchObject({ status: 'authorized' });
    coin = 0.7;
    expect(await provider.authorize(request({ card: cardData(cardEnding('9'), CVV) }), call())).toMatchObject({ status: 'declined', declinedCode: 'try_again' });
  });

  it('sends our brands as Cielo names them', async () => {
    await provider.authorize(request({ card: { ...cardData('5551870000000181', CVV), brand: 'mastercard' } }), call());
    const body = JSON.parse(seen.at(-1)!.body.toString()) as { Payment: { CreditCard: { Brand: string } } };
    expect(body.Payment.CreditCard.Brand).toBe('Master');
  });

  it('takes BRL only', async () => {
    expect(await provider.authorize(request({ currency: 'USD' }), call())).toMatchObject({ status: 'declined', declinedCode: 'not_permitted' });
    expect(seen).toHaveLength(0);
  });
});

describe('Cielo connector: debit', () => {
  it('authorizes a debit, captured, with the debit request\'s fields only', async () => {
    const result = await provider.authorize(request({ paymentType: 'debit', card: { ...cardData('5551870000000181', CVV), brand: 'mastercard' } }), call());
    expect(result).toMatchObject({ status: 'authorized', captured: true });
    const body = JSON.parse(seen.at(-1)!.body.toString()) as Record<string, unknown>;
    for (const path of paths(body)) expect(manual.debitCard).toContain(path);
    expect(body).toMatchObject({ Payment: { Type: 'DebitCard', Authenticate: false, DebitCard: { Brand: 'Master' } } });
  });
});

describe('Cielo connector: Pix', () => {
  const pixCall = () => call({ options: { pixCustomer: { name: 'Nome do Pagador', identity: '123.456.789-09' } } });

  it('answers pending with the QR code, is paid, notified, and read back by query', async () => {
    const result = await provider.authorize(request({ paymentType: 'pix', amount: 100, card: undefined }), pixCall());
    expect(result.status).toBe('pending');
    const pending = result as Extract<AuthorizeResult, { status: 'pending' }>;
    expect(brCodeValid(pending.pix!.qrCodeData)).toBe(true);
    expect(pending.pix!.expiresAt).toEqual(new Date(T0.getTime() + 2 * 3600_000));
    const body = JSON.parse(seen.at(-1)!.body.toString()) as Record<string, unknown>;
    for (const path of paths(body)) expect(manual.pix).toContain(path);
    expect(body).toEqual({ MerchantOrderId: '0f4a3c2e9d1b4c8ab7e65a4d3c2b1a09', Customer: { Name: 'Nome do Pagador', Identity: '12345678909', IdentityType: 'CPF' }, Payment: { Type: 'Pix', Amount: 100 } });

    await sim.payPix(pending.transactionId);
    expect(notifications).toHaveLength(1);
    const reading = cieloNotifications.read({ headers: {}, rawBody: Buffer.from(JSON.stringify(notifications[0])), query: {} }, CREDENTIALS);
    expect(reading.transactions).toEqual([{ transactionId: pending.transactionId }]);
    const query = await provider.query({ chargeId: 'c', transactionId: reading.transactions[0]!.transactionId, paymentType: 'pix', amount: 100, currency: 'BRL', now: T0 }, call());
    expect(query).toMatchObject({ found: true, status: 'authorized', capturedAmount: 100 });

    expect(await provider.refund(operation(pending.transactionId, 100), call())).toMatchObject({ status: 'success' });
  });

  it('without a payer document Cielo refuses the Pix (Customer.Identity is required)', async () => {
    const result = await provider.authorize(request({ paymentType: 'pix', card: undefined }), call());
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_data', message: expect.stringContaining('104') });
  });
});

describe('Cielo connector: the Braspag gateway', () => {
  it('sends /v2/sales with Payment.Provider and reads ProviderReturnCode', async () => {
    const credentials = { ...CREDENTIALS, gateway: 'braspag' };
    const declined = await provider.authorize(request({ card: cardData(cardEnding('2'), CVV) }), call({ credentials }));
    expect(declined).toMatchObject({ status: 'declined', declinedCode: 'generic', networkResponseCode: '05' });
    const post = seen.at(-1)!;
    expect(post.path).toBe('/v2/sales/');
    const body = JSON.parse(post.body.toString()) as Record<string, unknown>;
    for (const path of paths(body)) expect([...manual.creditCard, ...manual.braspagAdds]).toContain(path);
    expect(body).toMatchObject({ Payment: { Provider: 'Simulado' } });
    const id = await (async () => {
      const result = await provider.authorize(request(), call({ credentials }));
      return (result as Extract<AuthorizeResult, { status: 'authorized' }>).transactionId;
    })();
    expect(await provider.capture(operation(id, 1500), call({ credentials }))).toMatchObject({ status: 'success' });
    expect(await provider.query({ chargeId: 'c', transactionId: id, paymentType: 'credit', amount: 1500, currency: 'BRL', now: T0 }, call({ credentials }))).toMatchObject({ status: 'authorized' });
  });

  it('is also chosen by the provider entry\'s option gateway: "braspag"', async () => {
    await provider.authorize(request(), call({ options: { gateway: 'braspag' } }));
    expect(seen.at(-1)!.path).toBe('/v2/sales/');
    expect(JSON.parse(seen.at(-1)!.body.toString())).toMatchObject({ Payment: { Provider: 'Simulado' } });
  });
});

describe('Cielo connector: failures', () => {
  it('bad credentials are a final failure that names no secret', async () => {
    const credentials = { ...CREDENTIALS, merchantKey: 'WRONGKEYWRONGKEYWRONGKEYWRONGKEYWRONGKEY' };
    const result = await provider.authorize(request(), call({ credentials }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant', message: expect.stringContaining('401') });
    expect(JSON.stringify(result)).not.toContain('WRONGKEY');
    expect(sim.salesCreated).toBe(0);
  });

  it('a request that gets no answer before the deadline is aborted, its outcome unknown (it reached Cielo)', async () => {
    await sim.close();
    const controller = new AbortController();
    await startWith({ latencyMs: 600_000, onRequest: () => controller.abort() });
    await expect(provider.authorize(request(), call({ signal: controller.signal }))).rejects.toBeInstanceOf(ProviderOutcomeUnknownError);
    expect(sim.salesCreated).toBe(0);
  });

  it('an unreachable Cielo is a technical failure', async () => {
    const url = sim.url;
    await sim.close();
    const offline = new CieloProvider({ env: { CIELO_API_URL: url }, publicUrl: 'https://platform.test' });
    await expect(offline.authorize(request(), call())).rejects.toBeInstanceOf(ProviderUnavailableError);
    await startWith();
  });

  it('the same idempotency key reaches the simulator\'s state once', async () => {
    const same = call();
    const first = await provider.authorize(request(), same);
    const second = await provider.authorize(request(), { ...same, signal: new AbortController().signal });
    expect(second).toEqual(first);
    expect(sim.salesCreated).toBe(1);
    expect(seen[0]!.headers.requestid).toBe(requestIdOf(same.idempotencyKey));
    await provider.authorize(request(), call());
    expect(sim.salesCreated).toBe(2);
  });

  it('no error message carries the MerchantKey, the card number or the CVV, even when Cielo echoes them', async () => {
    const card = cardData(cardEnding('1'), CVV);
    const echo = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const status = req.url?.includes('/capture') ? 500 : 400;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ Code: 126, Message: `Credit Card ${card.number} with key ${MERCHANT.merchantKey} is invalid` }]));
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(echo.address() as { port: number }).port}`;
    const echoing = new CieloProvider({ env: { CIELO_API_URL: url, CIELO_QUERY_URL: url }, publicUrl: 'https://platform.test' });
    const messages: string[] = [];
    const declined = await echoing.authorize(request({ card }), call());
    messages.push(JSON.stringify(declined));
    messages.push(JSON.stringify(await echoing.refund(operation('24bc8366-fc31-4d6c-8555-17049a836a07', 1), call())));
    messages.push(await echoing.capture(operation('24bc8366-fc31-4d6c-8555-17049a836a07', 1), call()).then(String, (e: Error) => e.message));
    messages.push(await echoing.query({ chargeId: 'c', transactionId: 'x', paymentType: 'credit', amount: 1, currency: 'BRL', now: T0 }, call()).then(String, (e: Error) => e.message));
    messages.push(await provider.authorize(request(), call({ credentials: { ...CREDENTIALS, merchantId: 'not-a-guid' } })).then(String, (e: Error) => e.message));
    await new Promise<void>((resolve) => echo.close(() => resolve()));
    expect(declined).toMatchObject({ status: 'declined', message: expect.stringContaining('126') });
    for (const message of messages) {
      expect(message).not.toContain(card.number);
      expect(message).not.toContain(MERCHANT.merchantKey);
      expect(message).not.toContain(CVV);
    }
  });
});

describe('Cielo connector: catalog', () => {
  it('serves the CIELO credentials type with its schema', () => {
    expect(connectorFor('CIELO')).toBe(cieloConnector);
    expect(cieloConnector.credentials.safeParse(CREDENTIALS).success).toBe(true);
    expect(cieloConnector.credentials.safeParse({ ...CREDENTIALS, merchantId: 'store-1' }).success).toBe(false);
    expect(cieloConnector.credentials.safeParse({ ...CREDENTIALS, gateway: 'other' }).success).toBe(false);
    const adapters = cieloConnector.create({ env: {}, publicUrl: 'https://platform.test' });
    expect(adapters.map((a) => [a.type, a.paymentTypes])).toEqual([['CIELO', ['credit', 'debit', 'pix']]]);
  });
});

describe('Cielo connector: hosts', () => {
  it.each([
    ['cielo', 'api', 'sandbox', 'https://apisandbox.cieloecommerce.cielo.com.br'],
    ['cielo', 'query', 'sandbox', 'https://apiquerysandbox.cieloecommerce.cielo.com.br'],
    ['cielo', 'api', undefined, 'https://api.cieloecommerce.cielo.com.br'],
    ['cielo', 'query', 'production', 'https://apiquery.cieloecommerce.cielo.com.br'],
    ['braspag', 'api', 'sandbox', 'https://apisandbox.braspag.com.br'],
    ['braspag', 'query', 'sandbox', 'https://apiquerysandbox.braspag.com.br'],
    ['braspag', 'api', 'production', 'https://api.braspag.com.br'],
    ['braspag', 'query', 'production', 'https://apiquery.braspag.com.br'],
  ] as const)('%s %s in %s is the documented %s', (gateway, host, environment, url) => {
    expect(cieloBaseUrl({}, gateway, host, environment)).toBe(url);
  });

  it('the operator\'s variable wins, each host its own', () => {
    const env = { CIELO_API_URL: 'https://a.test', CIELO_QUERY_URL: 'https://q.test', CIELO_BRASPAG_API_URL: 'https://ba.test', CIELO_BRASPAG_QUERY_URL: 'https://bq.test' };
    expect([cieloBaseUrl(env, 'cielo', 'api', 'sandbox'), cieloBaseUrl(env, 'cielo', 'query', 'sandbox'), cieloBaseUrl(env, 'braspag', 'api', 'production'), cieloBaseUrl(env, 'braspag', 'query', 'production')]).toEqual([
      'https://a.test',
      'https://q.test',
      'https://ba.test',
      'https://bq.test',
    ]);
  });
});
