import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STRIPE_TEST_CARDS, startStripeSimulator, type RunningStripeSimulator } from '@platform/simulators';
import { connectorFor, CONNECTORS } from '../../../src/modules/connectors/catalog';
import { stripeConnector } from '../../../src/modules/connectors/stripe';
import { StripeProvider, STRIPE_HOSTS, stripeBaseUrl } from '../../../src/modules/connectors/stripe/connector';
import { STRIPE_DECLINES } from '../../../src/modules/connectors/stripe/declineTable';
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
import { cardData } from '../../support/cards';

const KEY = 'sk_test_51PgafyB7WZ01zgkWsimulatorKey0001';
const WRONG_KEY = 'sk_test_51PgafyB7WZ01zgkWsimulatorWRONG999';
const NO_RAW_KEY = 'sk_test_51PgafyB7WZ01zgkWnoRawCardData0002';
const WEBHOOK_SECRET = 'whsec_simulatorSigningSecret0001';
const CVV = '314';

interface Fixtures {
  resources: Record<string, Record<string, unknown>>;
}
const FIXTURES = JSON.parse(readFileSync(join(__dirname, '../../fixtures/stripe/fixtures3.json'), 'utf8')) as Fixtures;

describe('Stripe connector against its simulator', () => {
  let simulator: RunningStripeSimulator;
  let provider: StripeProvider;
  let now = Date.parse('2026-03-10T12:00:00Z');
  let attempt = 0;

  beforeAll(async () => {
    simulator = await startStripeSimulator({
      clock: () => new Date(now),
      accounts: [
        { secretKey: KEY, webhookSecret: WEBHOOK_SECRET },
        { secretKey: NO_RAW_KEY, webhookSecret: WEBHOOK_SECRET, rawCardData: false },
      ],
    });
    provider = new StripeProvider({ env: { STRIPE_API_URL: simulator.url }, publicUrl: 'https://api.example.test' }, { now: () => new Date(now) });
  });
  afterAll(() => simulator.close());

  const credentials = (secretKey = KEY) => ({ type: 'STRIPE', secretKey, webhookSecret: WEBHOOK_SECRET, environment: 'sandbox' });
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
    amount: 1000,
    currency: 'BRL',
    capture: true,
    paymentType: 'credit',
    installments: 1,
    statementDescriptor: 'LOJA EXEMPLO',
    card: cardData('4242424242424242', CVV),
    ...overrides,
  });
  const operation = (transactionId: string, amount: number): OperationRequest => ({ chargeId: 'c', transactionId, amount, currency: 'BRL' });
  const query = (transactionId: string): QueryRequest => ({ chargeId: 'c', transactionId, paymentType: 'credit', amount: 1000, currency: 'BRL', now: new Date(now) });
  const idOf = (result: AuthorizeResult): string => {
    if (result.status !== 'authorized' && result.status !== 'pending') throw new Error(`expected an authorization, got ${result.status}`);
    return result.transactionId;
  };

  it('is in the catalog and checks provider entries with its credentials schema', () => {
    expect(CONNECTORS).toContain(stripeConnector);
    expect(connectorFor('STRIPE')).toBe(stripeConnector);
    const [adapter] = stripeConnector.create({ env: {}, publicUrl: 'https://api.example.test' });
    expect(adapter).toMatchObject({ type: 'STRIPE', paymentTypes: ['credit', 'debit', 'pix'] });
    const schema = stripeConnector.credentials;
    expect(schema.safeParse(credentials()).success).toBe(true);
    expect(schema.safeParse({ type: 'STRIPE', secretKey: KEY, webhookSecret: WEBHOOK_SECRET }).success).toBe(true);
    expect(schema.safeParse({ type: 'STRIPE', secretKey: 'sk_live_51PgafyB7WZ01zgkWlive', webhookSecret: WEBHOOK_SECRET, environment: 'production' }).success).toBe(true);
    expect(schema.safeParse({ type: 'STRIPE', secretKey: KEY }).success).toBe(false);
    expect(schema.safeParse({ type: 'STRIPE', secretKey: 'pk_test_51PgafyB7WZ01zgkW', webhookSecret: WEBHOOK_SECRET }).success).toBe(false);
    expect(schema.safeParse({ ...credentials(), webhookSecret: 'secret' }).success).toBe(false);
    expect(schema.safeParse({ ...credentials(), environment: 'production' }).success).toBe(false);
    expect(schema.safeParse({ ...credentials(), secretKey: 'sk_live_51PgafyB7WZ01zgkWlive' }).success).toBe(false);
    const refused = schema.safeParse({ ...credentials(), environment: 'production' });
    expect(JSON.stringify(refused.error?.issues)).not.toContain(KEY);
  });

  it('talks to the documented host unless the operator names another', () => {
    expect(STRIPE_HOSTS).toEqual({ sandbox: 'https://api.stripe.com', production: 'https://api.stripe.com' });
    expect(stripeBaseUrl({}, 'sandbox')).toBe('https://api.stripe.com');
    expect(stripeBaseUrl({}, undefined)).toBe('https://api.stripe.com');
    expect(stripeBaseUrl({ STRIPE_API_URL: simulator.url }, 'production')).toBe(simulator.url);
  });

  it('authorizes with capture, the card checks read back, and the query says authorized', async () => {
    const sent = request({ amount: 2099 });
    const result = await provider.authorize(sent, call());
    expect(result).toMatchObject({ status: 'authorized', captured: true, cvvChecked: true });
    if (result.status !== 'authorized') return;
    expect(result.transactionId).toMatch(/^pi_[A-Za-z0-9]{24}$/);
    expect(result.networkAuthorizationCode).toMatch(/^\d{6}$/);
    const intent = simulator.paymentIntent(result.transactionId)!;
    expect(intent).toMatchObject({ amount: 2099, currency: 'brl', capture_method: 'automatic', status: 'succeeded', statement_descriptor_suffix: 'LOJA EXEMPLO' });
    expect(intent.metadata).toEqual({ charge_id: sent.chargeId, merchant_id: sent.merchantId });
    expect(await provider.query(query(result.transactionId), call())).toEqual({ found: true, status: 'authorized', providerStatus: 'succeeded', capturedAmount: 2099 });
  });

  it('pre-authorizes (manual capture), captures part of it once, and refuses a second capture', async () => {
    const id = idOf(await provider.authorize(request({ capture: false }), call()));
    expect(simulator.paymentIntent(id)).toMatchObject({ capture_method: 'manual', status: 'requires_capture', amount_capturable: 1000 });
    expect(await provider.query(query(id), call())).toEqual({ found: true, status: 'pre_authorized', providerStatus: 'requires_capture' });
    expect(await provider.capture(operation(id, 1200), call())).toMatchObject({ status: 'failed', declinedCode: 'invalid_amount' });
    const captureCall = call();
    expect(await provider.capture(operation(id, 600), captureCall)).toMatchObject({ status: 'success', transactionId: id });
    // The same attempt again is Stripe's replay of its first answer.
    expect(await provider.capture(operation(id, 600), { ...captureCall, signal: AbortSignal.timeout(5000) })).toMatchObject({ status: 'success' });
    expect(await provider.capture(operation(id, 400), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
    // The 400 released is not a refund.
    expect(await provider.query(query(id), call())).toEqual({ found: true, status: 'authorized', providerStatus: 'succeeded', capturedAmount: 600 });
    expect(await provider.refund(operation(id, 600), call())).toMatchObject({ status: 'success', transactionId: id });
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'voided', providerStatus: 'succeeded/refunded', capturedAmount: 600, refundedAmount: 600 });
  });

  it('cancels an authorization that was not captured, and nothing is captured after', async () => {
    const id = idOf(await provider.authorize(request({ capture: false, amount: 1500 }), call()));
    expect(await provider.cancel(operation(id, 1500), call())).toMatchObject({ status: 'success', transactionId: id });
    expect(await provider.query(query(id), call())).toEqual({ found: true, status: 'voided', providerStatus: 'canceled' });
    expect(await provider.capture(operation(id, 1500), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
    expect(await provider.cancel(operation(id, 1500), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
  });

  it('refunds a capture in part, then the rest, and refuses more than was captured', async () => {
    const id = idOf(await provider.authorize(request({ amount: 1000 }), call()));
    expect(await provider.refund(operation(id, 400), call())).toMatchObject({ status: 'success', transactionId: id });
    expect(await provider.query(query(id), call())).toEqual({ found: true, status: 'authorized', providerStatus: 'succeeded', capturedAmount: 1000, refundedAmount: 400 });
    expect(await provider.refund(operation(id, 700), call())).toMatchObject({ status: 'failed', declinedCode: 'invalid_amount' });
    expect(await provider.refund(operation(id, 600), call())).toMatchObject({ status: 'success' });
    expect(await provider.query(query(id), call())).toMatchObject({ status: 'voided', refundedAmount: 1000 });
    expect(await provider.refund(operation(id, 50), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
    const refunds = (simulator.paymentIntent(id)!.latest_charge as { refunds: { data: Array<{ amount: number; metadata: unknown }> } }).refunds.data;
    expect(refunds.map((r) => r.amount)).toEqual([400, 600]);
    expect(refunds[0]!.metadata).toEqual({ charge_id: 'c' });
  });

  it('does not refund an authorization that was not captured (it is canceled instead)', async () => {
    const id = idOf(await provider.authorize(request({ capture: false }), call()));
    expect(await provider.refund(operation(id, 100), call())).toMatchObject({ status: 'failed', declinedCode: 'transaction_not_allowed' });
  });

  it('takes debit cards, installments in MXN only, and declines without card data', async () => {
    expect(await provider.authorize(request({ paymentType: 'debit', card: cardData('4000056655665556', CVV) }), call())).toMatchObject({ status: 'authorized', captured: true });
    const id = idOf(await provider.authorize(request({ installments: 3, currency: 'MXN', amount: 30000 }), call()));
    expect(simulator.paymentIntent(id)!.payment_method_options).toMatchObject({ card: { installments: { plan: { count: 3, interval: 'month', type: 'fixed_count' } } } });
    const before = simulator.paymentIntentsCreated();
    expect(await provider.authorize(request({ installments: 3 }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_installment' });
    expect(await provider.authorize(request({ installments: 5, currency: 'MXN', amount: 30000 }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
    expect(simulator.paymentIntentsCreated()).toBe(before);
    expect(await provider.authorize(request({ card: undefined }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
  });

  const declining = Object.entries(STRIPE_TEST_CARDS).filter(([, card]) => card.decline);
  it.each(declining)('maps the decline of test card %s through its decline table', async (number, card) => {
    const code = card.decline!.declineCode ?? card.decline!.code;
    const entry = STRIPE_DECLINES[code]!;
    expect(entry).toBeDefined();
    const result = await provider.authorize(request({ card: cardData(number, CVV) }), call());
    expect(result).toMatchObject({ status: 'declined', declinedCode: entry.declinedCode });
    if (result.status !== 'declined') return;
    expect(result.message).toContain(code);
    expect(result.transactionId).toMatch(/^pi_/);
    expect(await provider.query(query(result.transactionId!), call())).toEqual({
      found: true,
      status: 'failed',
      providerStatus: `requires_payment_method/declined (${code})`,
      declinedCode: entry.declinedCode,
    });
  });

  it('maps a failed CVC check, an incorrect number and a card that asks for 3D Secure', async () => {
    expect(await provider.authorize(request({ card: cardData('4000000000000101', CVV) }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_cvv' });
    const wrongNumber = await provider.authorize(request({ card: cardData('4242424242424241', CVV) }), call());
    expect(wrongNumber).toMatchObject({ status: 'declined', declinedCode: 'invalid_number' });
    expect(wrongNumber).not.toHaveProperty('transactionId');
    const authentication = await provider.authorize(request({ card: cardData('4000002760003184', CVV) }), call());
    expect(authentication).toMatchObject({ status: 'declined', declinedCode: 'security_violation' });
    expect((authentication as { message: string }).message).toContain('authentication_required');
  });

  it('charges once for a repeated idempotency key, even when the first answer was lost', async () => {
    const key = `charge-lost-${++attempt}:attempt:1`;
    const sent = request();
    const before = simulator.paymentIntentsCreated();
    simulator.setLatency(1000);
    try {
      await expect(provider.authorize(sent, call({ idempotencyKey: key, signal: AbortSignal.timeout(200) }))).rejects.toThrow(ProviderOutcomeUnknownError);
    } finally {
      simulator.setLatency(0);
    }
    const retried = await provider.authorize(sent, call({ idempotencyKey: key }));
    const again = await provider.authorize(sent, call({ idempotencyKey: key }));
    expect(retried).toMatchObject({ status: 'authorized', captured: true });
    expect(again).toEqual(retried);
    expect(simulator.paymentIntentsCreated()).toBe(before + 1);
    // Other parameters under the same key: Stripe's idempotency_error, a final refusal.
    const other = await provider.authorize({ ...sent, amount: 1001 }, call({ idempotencyKey: key }));
    expect(other).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
    expect((other as { message: string }).message).toContain('idempotency_error');
    expect(simulator.paymentIntentsCreated()).toBe(before + 1);
  });

  it('answers a retried declined attempt with its decline, without a new PaymentIntent', async () => {
    const key = `charge-declined-${++attempt}:attempt:1`;
    const sent = request({ card: cardData('4000000000009995', CVV) });
    const first = await provider.authorize(sent, call({ idempotencyKey: key }));
    const before = simulator.paymentIntentsCreated();
    const retried = await provider.authorize(sent, call({ idempotencyKey: key }));
    expect(first).toMatchObject({ status: 'declined', declinedCode: 'insufficient_funds' });
    expect(retried).toEqual(first);
    expect(simulator.paymentIntentsCreated()).toBe(before);
  });

  it('declines with invalid_merchant on a refused key, and repeats no secret', async () => {
    const card = cardData('4242424242424242', CVV);
    const result = await provider.authorize(request({ card }), call({ credentials: credentials(WRONG_KEY) }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
    const refund = await provider.refund(operation('pi_0000000000000000000000AA', 100), call({ credentials: credentials(WRONG_KEY) }));
    expect(refund).toMatchObject({ status: 'failed', declinedCode: 'invalid_merchant' });
    let queried: unknown;
    try {
      await provider.query(query('pi_0000000000000000000000AA'), call({ credentials: credentials(WRONG_KEY) }));
    } catch (error) {
      queried = error;
    }
    expect(queried).toBeInstanceOf(Error);
    const text = JSON.stringify([result, refund, String(queried), (queried as Error).stack]);
    for (const secret of [WRONG_KEY, WRONG_KEY.slice(-4) + '"', KEY, card.number, CVV, WEBHOOK_SECRET]) expect(text).not.toContain(secret);
    await expect(provider.query(query('pi_1'), call({ credentials: { type: 'STRIPE', secretKey: KEY } }))).rejects.toThrow('STRIPE credentials are invalid: webhookSecret');
  });

  it('is refused card numbers on an account without raw card data APIs, and says so without the card', async () => {
    const card = cardData('4242424242424242', CVV);
    const result = await provider.authorize(request({ card }), call({ credentials: credentials(NO_RAW_KEY) }));
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
    const message = (result as { message: string }).message;
    expect(message).toContain('Sending credit card numbers directly to the Stripe API is generally unsafe');
    expect(message).not.toContain(card.number);
  });

  it('gives up when Stripe does not answer in time (an unknown outcome), with an error that repeats no secret', async () => {
    const card = cardData('5555555555554444', CVV);
    simulator.stall(true);
    let caught: unknown;
    try {
      await provider.authorize(request({ card }), call({ signal: AbortSignal.timeout(200) }));
    } catch (error) {
      caught = error;
    } finally {
      simulator.stall(false);
    }
    expect(caught).toBeInstanceOf(ProviderOutcomeUnknownError);
    const error = caught as Error;
    expect(error.message).toBe('Stripe did not answer in time');
    const text = `${error.message} ${String(error.stack)} ${JSON.stringify(error)}`;
    for (const secret of [KEY, card.number, CVV]) expect(text).not.toContain(secret);
  });

  it('a 5xx to the sale is an unknown outcome, to a query a technical failure; an unreachable Stripe too; no secret recorded', async () => {
    simulator.outage(true);
    try {
      await expect(provider.authorize(request(), call())).rejects.toThrow(ProviderOutcomeUnknownError);
      await expect(provider.capture(operation('pi_000000000000000000000000', 100), call())).rejects.toThrow('Stripe did not take the request (HTTP 500');
      await expect(provider.query(query('pi_000000000000000000000000'), call())).rejects.toThrow(ProviderUnavailableError);
    } finally {
      simulator.outage(false);
    }
    const closed = await startStripeSimulator({ accounts: [{ secretKey: KEY }] });
    await closed.close();
    const nowhere = new StripeProvider({ env: { STRIPE_API_URL: closed.url }, publicUrl: 'https://api.example.test' });
    let caught: unknown;
    try {
      await nowhere.authorize(request(), call());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderUnavailableError);
    expect(`${(caught as Error).message} ${String((caught as Error).stack)}`).not.toContain(KEY);
  });

  it('finds nothing for an unknown PaymentIntent', async () => {
    expect(await provider.query(query('pi_000000000000000000000000'), call())).toEqual({ found: false });
  });

  it('creates a Pix with its QR code, pending until paid, then authorized by the query', async () => {
    const result = await provider.authorize(request({ paymentType: 'pix', card: undefined, amount: 2500, pix: { expiresIn: 3600 } }), call());
    expect(result).toMatchObject({ status: 'pending' });
    if (result.status !== 'pending') return;
    expect(result.pix?.qrCodeData).toMatch(/^000201/);
    expect(result.pix?.qrCodeData).toContain('2500'.replace(/(\d{2})$/, '.$1'));
    expect(result.pix?.expiresAt).toEqual(new Date(now + 3600 * 1000));
    expect(simulator.paymentIntent(result.transactionId)).toMatchObject({ allowed_payment_method_types: ['pix'], status: 'requires_action' });
    expect(await provider.query({ ...query(result.transactionId), paymentType: 'pix' }, call())).toMatchObject({ found: true, status: 'pending', providerStatus: 'requires_action' });
    await simulator.payPix(result.transactionId);
    expect(await provider.query({ ...query(result.transactionId), paymentType: 'pix' }, call())).toEqual({ found: true, status: 'authorized', providerStatus: 'succeeded', capturedAmount: 2500 });
    expect(await provider.refund(operation(result.transactionId, 1000), call())).toMatchObject({ status: 'success' });
  });

  it('fails a Pix that expired unpaid, and cancels one not paid yet', async () => {
    const expiring = idOf(await provider.authorize(request({ paymentType: 'pix', card: undefined, pix: { expiresIn: 60 } }), call()));
    now += 61_000;
    expect(await provider.query({ ...query(expiring), paymentType: 'pix' }, call())).toEqual({
      found: true,
      status: 'failed',
      providerStatus: 'requires_payment_method/declined (payment_intent_payment_attempt_expired)',
      declinedCode: 'generic',
    });
    const unpaid = idOf(await provider.authorize(request({ paymentType: 'pix', card: undefined }), call()));
    expect(await provider.cancel(operation(unpaid, 1000), call())).toMatchObject({ status: 'success' });
    expect(await provider.query({ ...query(unpaid), paymentType: 'pix' }, call())).toEqual({ found: true, status: 'canceled', providerStatus: 'canceled/unpaid' });
    expect(await provider.authorize(request({ paymentType: 'pix', card: undefined, currency: 'USD' }), call())).toMatchObject({ status: 'declined', declinedCode: 'not_permitted' });
  });

  describe('webhook events', () => {
    const latestEventOf = (type: string) => [...simulator.events()].reverse().find((d) => d.event.type === type)!;
    const read = (payload: string | Buffer, signature: string | undefined, secret = WEBHOOK_SECRET) =>
      provider.notifications.read(
        { headers: signature === undefined ? { 'content-type': 'application/json' } : { 'Stripe-Signature': signature }, rawBody: Buffer.from(payload), query: {} },
        { ...credentials(), webhookSecret: secret },
      );

    it('verifies the signature over the raw body and names the PaymentIntent to query back', async () => {
      const id = idOf(await provider.authorize(request(), call()));
      await simulator.flush();
      const delivery = latestEventOf('payment_intent.succeeded');
      expect(delivery.event.data.object.id).toBe(id);
      expect(read(delivery.payload, delivery.signature)).toEqual({ transactions: [{ transactionId: id, providerStatus: 'payment_intent.succeeded' }], reply: { status: 200 } });
      await provider.refund(operation(id, 100), call());
      const refunded = latestEventOf('charge.refunded');
      expect(read(refunded.payload, refunded.signature).transactions).toEqual([{ transactionId: id, providerStatus: 'charge.refunded' }]);
    });

    it('refuses a forged, altered, stale or unsigned event, without repeating the secret', async () => {
      idOf(await provider.authorize(request(), call()));
      const delivery = latestEventOf('payment_intent.succeeded');
      const attempts = [
        () => read(delivery.payload, delivery.signature, 'whsec_anotherEndpointSecret01'),
        () => read(delivery.payload.replace('"succeeded"', '"canceled"'), delivery.signature),
        () => read(delivery.payload, undefined),
        () => read(delivery.payload, 't=1,v1=00'),
        () => read(delivery.payload, 'garbage'),
      ];
      for (const attemptRead of attempts) {
        let caught: unknown;
        try {
          attemptRead();
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(NotificationRefusedError);
        expect(String((caught as Error).message)).not.toContain(WEBHOOK_SECRET);
      }
      now += 301_000;
      expect(() => read(delivery.payload, delivery.signature)).toThrow('timestamp outside the tolerance zone');
      const fresh = simulator.sign(delivery.payload, WEBHOOK_SECRET);
      expect(read(delivery.payload, fresh).transactions).toHaveLength(1);
    });

    it('acknowledges events about other objects without naming a transaction', () => {
      const payload = JSON.stringify(FIXTURES.resources.event);
      expect(read(payload, simulator.sign(payload, WEBHOOK_SECRET))).toEqual({ transactions: [], reply: { status: 200 } });
    });
  });

  it('answers in the shapes of Stripe’s own example objects', async () => {
    const id = idOf(await provider.authorize(request({ capture: true }), call()));
    await provider.refund(operation(id, 100), call());
    await simulator.flush();
    const intent = simulator.paymentIntent(id)!;
    const charge = intent.latest_charge as Record<string, unknown>;
    const refund = (charge.refunds as { data: Array<Record<string, unknown>> }).data[0]!;
    const event = simulator.events().find((d) => d.event.type === 'payment_intent.succeeded')!.event;
    const keys = (value: Record<string, unknown>) => Object.keys(value).sort();
    const missing = (example: Record<string, unknown>, actual: Record<string, unknown>) => keys(example).filter((key) => !(key in actual));
    expect(missing(FIXTURES.resources.payment_intent!, intent)).toEqual([]);
    expect(missing(FIXTURES.resources.charge!, charge)).toEqual([]);
    expect(missing(FIXTURES.resources.refund!, refund)).toEqual([]);
    expect(missing(FIXTURES.resources.event!, event)).toEqual([]);
    expect(missing((FIXTURES.resources.charge!.payment_method_details as { card: Record<string, unknown> }).card, (charge.payment_method_details as { card: Record<string, unknown> }).card)).toEqual([]);
    expect(intent.object).toBe(FIXTURES.resources.payment_intent!.object);
    expect(charge.object).toBe('charge');
    expect(refund.object).toBe('refund');
  });
});
