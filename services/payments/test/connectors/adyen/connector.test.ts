import {
  adyenClientEncryptionKeys,
  ADYEN_TEST_EXPIRY,
  ADYEN_TEST_HOLDER_NAMES,
  adyenSignature,
  startAdyenSimulator,
  testTls,
  type AdyenNotification,
  type AdyenNotificationItem,
  type RunningAdyenSimulator,
} from '@platform/simulators';
import { connectorFor, CONNECTORS } from '../../../src/modules/connectors/catalog';
import { adyenConnector } from '../../../src/modules/connectors/adyen';
import { AdyenProvider, adyenCheckoutUrl, ADYEN_TEST_CHECKOUT } from '../../../src/modules/connectors/adyen/connector';
import { ADYEN_DECLINES } from '../../../src/modules/connectors/adyen/declineTable';
import { adyenNotifications } from '../../../src/modules/connectors/adyen/notifications';
import {
  NotificationRefusedError,
  ProviderOutcomeUnknownError,
  ProviderUnavailableError,
  type AuthorizeRequest,
  type AuthorizeResult,
  type OperationRequest,
  type ProviderCall,
} from '../../../src/modules/connectors/domain/types';
import { forgetTrustedAuthorities } from '../../../src/modules/connectors/kit/http';
import { cardData } from '../../support/cards';
import { check, requestSchema, responseSchema } from './openapi';

const tls = testTls();
const ACCOUNT = { apiKey: 'AQEyhmfxK4_platform_test_api_key_0001', merchantAccount: 'PlatformECOM', hmacKey: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' };
const OTHER = { apiKey: 'AQEyhmfxK4_another_company_api_key_0002', merchantAccount: 'AnotherECOM', hmacKey: '11'.repeat(32) };
const KEYS = adyenClientEncryptionKeys();
const ENCRYPTED = {
  apiKey: 'AQEyhmfxK4_encrypted_fields_key_0003',
  merchantAccount: 'EncryptedECOM',
  hmacKey: '22'.repeat(32),
  rawCardData: false,
  clientEncryptionPrivateKey: KEYS.privateKey,
};
const VISA = '4111111111111111';
const AMEX = '370000000000002';
const PUBLIC_URL = 'https://platform.example.test';

const extraCas = process.env.NODE_EXTRA_CA_CERTS;
let simulator: RunningAdyenSimulator;
let provider: AdyenProvider;
let attempt = 0;

beforeAll(async () => {
  process.env.NODE_EXTRA_CA_CERTS = tls.caFile;
  forgetTrustedAuthorities();
  simulator = await startAdyenSimulator({ accounts: [ACCOUNT, OTHER, ENCRYPTED], clock: () => new Date('2026-03-10T12:00:00Z') });
  provider = new AdyenProvider({ env: { ADYEN_CHECKOUT_URL: simulator.checkoutUrl }, publicUrl: PUBLIC_URL });
});

afterAll(async () => {
  await simulator.close();
  if (extraCas === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
  else process.env.NODE_EXTRA_CA_CERTS = extraCas;
  forgetTrustedAuthorities();
});

const credentials = (overrides: Record<string, unknown> = {}) => ({ type: 'ADYEN', ...ACCOUNT, environment: 'sandbox', ...overrides });
const call = (overrides: Partial<ProviderCall> = {}): ProviderCall => ({
  idempotencyKey: `charge-${++attempt}:attempt:1`,
  signal: new AbortController().signal,
  credentials: credentials(),
  options: {},
  ...overrides,
});
const testCard = (number = VISA, cvv = number === AMEX ? '7373' : '737', holderName = 'Maria Souza') => ({
  ...cardData(number, cvv),
  expirationMonth: Number(ADYEN_TEST_EXPIRY.month),
  expirationYear: Number(ADYEN_TEST_EXPIRY.year),
  holderName,
});
const request = (overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  chargeId: `00000000-0000-4000-8000-${String(++attempt).padStart(12, '0')}`,
  merchantId: '00000000-0000-4000-8000-000000000002',
  amount: 1000,
  currency: 'BRL',
  capture: true,
  paymentType: 'credit',
  installments: 1,
  statementDescriptor: 'LOJA EXEMPLO',
  card: testCard(),
  ...overrides,
});
const operation = (transactionId: string, amount: number): OperationRequest => ({ chargeId: '00000000-0000-4000-8000-0000000000aa', transactionId, amount, currency: 'BRL' });
const pspOf = (result: AuthorizeResult): string => {
  if (result.status !== 'authorized') throw new Error(`expected an authorization, got ${result.status}: ${JSON.stringify(result)}`);
  return result.transactionId;
};
const lastExchange = (route: string) => simulator.exchanges.filter((e) => e.route === route).at(-1)!;
/** The notification of an event about a payment, once the simulator settled everything it took. */
async function notificationOf(payment: string, eventCode: string): Promise<AdyenNotification> {
  await simulator.idle();
  const found = simulator.notifications.filter((n) => {
    const item = n.notificationItems[0]!.NotificationRequestItem;
    return item.eventCode === eventCode && (item.originalReference ?? item.pspReference) === payment;
  });
  if (found.length === 0) throw new Error(`no ${eventCode} notification for ${payment}`);
  return found.at(-1)!;
}
const read = (body: unknown, entry: Record<string, unknown> = credentials()) =>
  adyenNotifications.read({ headers: { 'content-type': 'application/json' }, query: {}, rawBody: Buffer.from(JSON.stringify(body)) }, entry);

describe('Adyen connector: the catalog, credentials and hosts', () => {
  it('is in the catalog and checks provider entries with its credentials schema', () => {
    expect(CONNECTORS).toContain(adyenConnector);
    expect(connectorFor('ADYEN')).toBe(adyenConnector);
    const [adapter] = adyenConnector.create({ env: {}, publicUrl: PUBLIC_URL });
    expect(adapter).toMatchObject({ type: 'ADYEN', paymentTypes: ['credit', 'debit'] });
    expect(adapter!.query).toBeUndefined();
    const schema = adyenConnector.credentials;
    expect(schema.safeParse(credentials()).success).toBe(true);
    expect(schema.safeParse({ type: 'ADYEN', ...ACCOUNT, liveEndpointUrlPrefix: '1797a841fbb37ca7-AdyenDemo' }).success).toBe(true);
    // Production (the default) needs the merchant's live prefix.
    expect(schema.safeParse({ type: 'ADYEN', ...ACCOUNT }).success).toBe(false);
    expect(schema.safeParse(credentials({ hmacKey: 'not-hex' })).success).toBe(false);
    expect(schema.safeParse(credentials({ apiKey: 'short' })).success).toBe(false);
    expect(schema.safeParse(credentials({ merchantAccount: 'has spaces' })).success).toBe(false);
  });

  it('goes to ADYEN_CHECKOUT_URL when set, else the test host or the merchant’s own live host', () => {
    expect(adyenCheckoutUrl({ ADYEN_CHECKOUT_URL: 'https://proxy.example/v72/' }, { environment: 'sandbox' })).toBe('https://proxy.example/v72');
    expect(adyenCheckoutUrl({}, { environment: 'sandbox' })).toBe(ADYEN_TEST_CHECKOUT);
    expect(adyenCheckoutUrl({}, { liveEndpointUrlPrefix: '1797a841fbb37ca7-AdyenDemo' })).toBe('https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v72');
  });
});

describe('Adyen connector against its simulator', () => {
  it('authorizes and captures at once: POST /payments with raw card data, captureDelayHours 0 and the attempt’s Idempotency-Key', async () => {
    const idempotencyKey = `charge-${++attempt}:attempt:1`;
    const result = await provider.authorize(request({ amount: 2599, installments: 3 }), call({ idempotencyKey }));
    expect(result).toMatchObject({ status: 'authorized', captured: true, cvvChecked: true });
    const exchange = lastExchange('/payments');
    expect(exchange).toMatchObject({ status: 200, idempotencyKey });
    expect(exchange.requestBody).toMatchObject({
      amount: { currency: 'BRL', value: 2599 },
      merchantAccount: ACCOUNT.merchantAccount,
      returnUrl: PUBLIC_URL,
      captureDelayHours: 0,
      installments: { value: 3 },
      shopperStatement: 'LOJA EXEMPLO',
      paymentMethod: { type: 'scheme', number: VISA, expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'Maria Souza' },
    });
    expect(check(requestSchema('/payments'), exchange.requestBody)).toEqual({ valid: true, errors: [] });
    expect(check(responseSchema('/payments', 200), exchange.responseBody)).toEqual({ valid: true, errors: [] });
    expect(simulator.payment(pspOf(result))).toMatchObject({ capturedAmount: 2599, manualCapture: false });
  });

  it('holds a pre-authorization (manualCapture), captures part of it, and the CAPTURE notification settles the capture', async () => {
    const result = await provider.authorize(request({ amount: 5000, capture: false }), call());
    const psp = pspOf(result);
    expect(result).toMatchObject({ captured: false });
    expect(lastExchange('/payments').requestBody).toMatchObject({ additionalData: { manualCapture: 'true' } });
    expect(lastExchange('/payments').requestBody).not.toHaveProperty('captureDelayHours');

    const captured = await provider.capture(operation(psp, 3000), call());
    expect(captured).toMatchObject({ status: 'pending' });
    const exchange = lastExchange('/payments/{paymentPspReference}/captures');
    expect(exchange).toMatchObject({ status: 201, requestBody: { amount: { currency: 'BRL', value: 3000 }, merchantAccount: ACCOUNT.merchantAccount } });
    expect(check(requestSchema('/payments/{paymentPspReference}/captures'), exchange.requestBody).errors).toEqual([]);
    expect(check(responseSchema('/payments/{paymentPspReference}/captures', 201), exchange.responseBody).errors).toEqual([]);
    expect(captured.status === 'pending' && captured.transactionId).toBe((exchange.responseBody as { pspReference: string }).pspReference);

    const reading = read(await notificationOf(psp, 'CAPTURE'));
    expect(reading).toEqual({
      transactions: [{ transactionId: psp, status: 'authorized', providerStatus: 'CAPTURE:true', operation: { type: 'capture', reference: captured.status === 'pending' ? captured.transactionId : '', succeeded: true, amount: 3000 } }],
      reply: { status: 200, body: { notificationResponse: '[accepted]' } },
    });
    expect(simulator.payment(psp)).toMatchObject({ capturedAmount: 3000 });
  });

  it('a capture Adyen refuses (more than authorized) is told by a CAPTURE notification with success false', async () => {
    const psp = pspOf(await provider.authorize(request({ amount: 1000, capture: false }), call()));
    expect(await provider.capture(operation(psp, 1500), call())).toMatchObject({ status: 'pending' });
    expect(read(await notificationOf(psp, 'CAPTURE')).transactions).toEqual([{ transactionId: psp, status: 'failed', providerStatus: 'CAPTURE:false (Insufficient balance on payment)', operation: expect.objectContaining({ type: 'capture', succeeded: false }) }]);
  });

  it('cancels a pre-authorization: POST /cancels, settled by the CANCELLATION notification', async () => {
    const psp = pspOf(await provider.authorize(request({ capture: false }), call()));
    expect(await provider.cancel(operation(psp, 1000), call())).toMatchObject({ status: 'pending' });
    const exchange = lastExchange('/payments/{paymentPspReference}/cancels');
    expect(check(requestSchema('/payments/{paymentPspReference}/cancels'), exchange.requestBody).errors).toEqual([]);
    expect(check(responseSchema('/payments/{paymentPspReference}/cancels', 201), exchange.responseBody).errors).toEqual([]);
    expect(read(await notificationOf(psp, 'CANCELLATION')).transactions).toEqual([{ transactionId: psp, status: 'voided', providerStatus: 'CANCELLATION:true', operation: expect.objectContaining({ type: 'void', succeeded: true }) }]);
    expect(simulator.payment(psp)).toMatchObject({ cancelled: true });
  });

  it('refunds in part (POST /refunds), and a refund beyond what was captured is refused by its notification', async () => {
    const psp = pspOf(await provider.authorize(request({ amount: 4000 }), call()));
    expect(await provider.refund(operation(psp, 1500), call())).toMatchObject({ status: 'pending' });
    const exchange = lastExchange('/payments/{paymentPspReference}/refunds');
    expect(exchange.requestBody).toMatchObject({ amount: { currency: 'BRL', value: 1500 } });
    expect(check(requestSchema('/payments/{paymentPspReference}/refunds'), exchange.requestBody).errors).toEqual([]);
    expect(check(responseSchema('/payments/{paymentPspReference}/refunds', 201), exchange.responseBody).errors).toEqual([]);
    expect(read(await notificationOf(psp, 'REFUND')).transactions).toEqual([{ transactionId: psp, status: 'voided', providerStatus: 'REFUND:true', operation: expect.objectContaining({ type: 'refund', succeeded: true }) }]);
    expect(simulator.payment(psp)).toMatchObject({ refundedAmount: 1500 });

    expect(await provider.refund(operation(psp, 3000), call())).toMatchObject({ status: 'pending' });
    expect(read(await notificationOf(psp, 'REFUND')).transactions).toEqual([{ transactionId: psp, status: 'authorized', providerStatus: 'REFUND:false (Insufficient balance on payment)', operation: expect.objectContaining({ type: 'refund', succeeded: false }) }]);
    expect(simulator.payment(psp)).toMatchObject({ refundedAmount: 1500 });
  });

  it('maps every refusal the test platform forces by holder name to its decline code', async () => {
    for (const [name, [code, , resultCode]] of Object.entries(ADYEN_TEST_HOLDER_NAMES)) {
      if (resultCode === 'Authorised' || resultCode === 'Received') continue;
      const result = await provider.authorize(request({ card: testCard(VISA, '737', name) }), call());
      const expected = ADYEN_DECLINES[String(code)]!;
      expect({ name, result }).toMatchObject({
        name,
        result: resultCode === 'Cancelled' ? { status: 'canceled' } : { status: 'declined', declinedCode: expected.declinedCode, networkResponseCode: String(code) },
      });
      expect(check(responseSchema('/payments', 200), lastExchange('/payments').responseBody).errors).toEqual([]);
    }
  });

  it('a wrong CVC or an unknown card is refused as the test platform does', async () => {
    expect(await provider.authorize(request({ card: testCard(VISA, '123') }), call())).toMatchObject({ status: 'declined', declinedCode: 'generic', networkResponseCode: '2' });
    expect(await provider.authorize(request({ card: testCard('4000000000000002') }), call())).toMatchObject({ status: 'declined', declinedCode: 'invalid_number', networkResponseCode: '8' });
    expect(await provider.authorize(request({ card: testCard(AMEX) }), call())).toMatchObject({ status: 'authorized' });
  });

  it('a Received payment is pending until its AUTHORISATION notification, which says whether it was held', async () => {
    const outcomes = [];
    for (const capture of [false, true, undefined]) {
      const result = await provider.authorize(request({ card: testCard(VISA, '737', 'PENDING'), capture: capture ?? true }), call());
      expect(result).toMatchObject({ status: 'pending' });
      const psp = result.status === 'pending' ? result.transactionId : '';
      const notification = await simulator.completePending(psp, capture !== undefined);
      outcomes.push(read(notification).transactions.map((t) => [t.transactionId === psp, t.status, t.providerStatus]));
    }
    expect(outcomes).toEqual([
      [[true, 'pre_authorized', 'AUTHORISATION:true:held']],
      [[true, 'authorized', 'AUTHORISATION:true']],
      [[true, 'failed', 'AUTHORISATION:false (Refused)']],
    ]);
  });

  it('a repeated Idempotency-Key reaches Adyen once and gets the first answer', async () => {
    const idempotencyKey = `charge-${++attempt}:attempt:1`;
    const before = simulator.paymentsCreated();
    const first = await provider.authorize(request(), call({ idempotencyKey }));
    const again = await provider.authorize(request(), call({ idempotencyKey }));
    expect(again).toEqual(first);
    expect(simulator.paymentsCreated()).toBe(before + 1);
  });

  it('sends a long attempt key as its SHA-256 (Adyen takes 64 characters)', async () => {
    await provider.authorize(request(), call({ idempotencyKey: `${'k'.repeat(70)}:${++attempt}` }));
    expect(lastExchange('/payments').idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refused credentials decline the charge as invalid_merchant, without the key in the message', async () => {
    const badKey = await provider.authorize(request(), call({ credentials: credentials({ apiKey: 'AQEyhmfxK4_this_key_is_not_known_0000' }) }));
    expect(badKey).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
    expect(lastExchange('/payments')).toMatchObject({ status: 401 });
    expect(check(responseSchema('/payments', 401), lastExchange('/payments').responseBody).errors).toEqual([]);
    const otherAccount = await provider.authorize(request(), call({ credentials: credentials({ merchantAccount: OTHER.merchantAccount }) }));
    expect(otherAccount).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
    expect(check(responseSchema('/payments', 403), lastExchange('/payments').responseBody).errors).toEqual([]);
    for (const result of [badKey, otherAccount]) {
      const text = JSON.stringify(result);
      expect(text).not.toContain('this_key_is_not_known');
      expect(text).not.toContain(ACCOUNT.apiKey);
      expect(text).not.toContain(VISA);
    }
    expect(await provider.capture(operation('8800000000000000', 100), call({ credentials: credentials({ apiKey: 'AQEyhmfxK4_this_key_is_not_known_0000' }) }))).toMatchObject({
      status: 'failed',
      declinedCode: 'invalid_merchant',
    });
  });

  it('a request Adyen finds malformed is a final decline with its error code, checked against the document', async () => {
    const result = await provider.authorize(request({ currency: 'REAL' }), call());
    expect(result).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
    expect(result.status === 'declined' && result.message).toContain('137');
    expect(check(responseSchema('/payments', 422), lastExchange('/payments').responseBody).errors).toEqual([]);
    const unknown = await provider.capture(operation('8800000000000000', 100), call());
    expect(unknown).toMatchObject({ status: 'failed' });
  });

  it('no answer in time to the payment is an unknown outcome; a 5xx or 429 or no provider at all a technical failure', async () => {
    simulator.stall(true);
    const controller = new AbortController();
    const pending = provider.authorize(request(), call({ signal: controller.signal }));
    setImmediate(() => controller.abort());
    await expect(pending).rejects.toBeInstanceOf(ProviderOutcomeUnknownError);
    simulator.stall(false);

    for (const status of [500, 429]) {
      simulator.failNext(status);
      // After the request was sent, even a 429 is looked up before the charge moves on (the conservative reading).
      await expect(provider.authorize(request(), call())).rejects.toBeInstanceOf(ProviderOutcomeUnknownError);
      expect(lastExchange('/payments').status).toBe(status);
      if (status === 500) expect(check(responseSchema('/payments', 500), lastExchange('/payments').responseBody).errors).toEqual([]);
      simulator.failNext(status);
      await expect(provider.capture(operation('8800000000000000', 100), call())).rejects.toBeInstanceOf(ProviderUnavailableError);
    }

    const gone = await startAdyenSimulator({ accounts: [ACCOUNT] });
    const url = gone.checkoutUrl;
    await gone.close();
    const nowhere = new AdyenProvider({ env: { ADYEN_CHECKOUT_URL: url }, publicUrl: PUBLIC_URL });
    await expect(nowhere.authorize(request(), call())).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(nowhere.refund(operation('8800000000000000', 100), call())).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('sends the card’s fields encrypted to the merchant’s client encryption key when the entry says so', async () => {
    const encrypted = new AdyenProvider({ env: { ADYEN_CHECKOUT_URL: simulator.checkoutUrl }, publicUrl: PUBLIC_URL }, { now: () => new Date('2026-03-10T11:59:00Z') });
    const entry = { type: 'ADYEN', ...ENCRYPTED, environment: 'sandbox' };
    const options = { cardData: 'encrypted', clientEncryptionPublicKey: KEYS.publicKey };
    // This account may not send raw card data.
    expect(await encrypted.authorize(request(), call({ credentials: entry }))).toMatchObject({ status: 'declined', declinedCode: 'invalid_merchant' });
    expect(lastExchange('/payments')).toMatchObject({ status: 403, responseBody: { errorCode: '010' } });

    const result = await encrypted.authorize(request({ amount: 3100 }), call({ credentials: entry, options }));
    expect(result).toMatchObject({ status: 'authorized', captured: true });
    const exchange = lastExchange('/payments');
    const method = (exchange.requestBody as { paymentMethod: Record<string, unknown> }).paymentMethod;
    expect(Object.keys(method).sort()).toEqual(['encryptedCardNumber', 'encryptedExpiryMonth', 'encryptedExpiryYear', 'encryptedSecurityCode', 'holderName', 'type']);
    expect(method.encryptedCardNumber).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(JSON.stringify(exchange.requestBody)).not.toContain(VISA);
    expect(check(requestSchema('/payments'), exchange.requestBody)).toEqual({ valid: true, errors: [] });
    expect(simulator.payment(pspOf(result))).toMatchObject({ amount: 3100, brand: 'visa' });

    // Another key's encryption does not decrypt; fields made two days before Adyen's clock are refused.
    const stranger = { ...options, clientEncryptionPublicKey: adyenClientEncryptionKeys().publicKey };
    expect(await encrypted.authorize(request(), call({ credentials: entry, options: stranger }))).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });
    expect(lastExchange('/payments')).toMatchObject({ status: 422, responseBody: { errorCode: '174' } });
    const stale = new AdyenProvider({ env: { ADYEN_CHECKOUT_URL: simulator.checkoutUrl }, publicUrl: PUBLIC_URL }, { now: () => new Date('2026-03-08T12:00:00Z') });
    expect(await stale.authorize(request(), call({ credentials: entry, options }))).toMatchObject({ status: 'declined', declinedCode: 'invalid_data' });

    // Without a usable key nothing is sent.
    const before = simulator.exchanges.length;
    expect(await encrypted.authorize(request(), call({ credentials: entry, options: { cardData: 'encrypted', clientEncryptionPublicKey: 'not a key' } }))).toMatchObject({
      status: 'declined',
      declinedCode: 'invalid_merchant',
    });
    expect(simulator.exchanges.length).toBe(before);
  });

  it('trusts only the authorities the platform trusts: without the test CA the simulator’s certificate is refused', async () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    forgetTrustedAuthorities();
    try {
      const fresh = new AdyenProvider({ env: { ADYEN_CHECKOUT_URL: simulator.checkoutUrl }, publicUrl: PUBLIC_URL });
      const before = simulator.paymentsCreated();
      await expect(fresh.authorize(request(), call())).rejects.toThrow();
      expect(simulator.paymentsCreated()).toBe(before);
    } finally {
      process.env.NODE_EXTRA_CA_CERTS = tls.caFile;
      forgetTrustedAuthorities();
    }
  });
});

describe('Adyen notifications', () => {
  const item = (overrides: Partial<AdyenNotificationItem> = {}): Omit<AdyenNotificationItem, 'additionalData'> => ({
    amount: { currency: 'BRL', value: 1000 },
    eventCode: 'AUTHORISATION',
    eventDate: '2026-03-10T12:00:00+00:00',
    merchantAccountCode: ACCOUNT.merchantAccount,
    merchantReference: 'order-1',
    pspReference: '8816118280275544',
    success: 'true',
    ...overrides,
  });
  const signed = (fields: Omit<AdyenNotificationItem, 'additionalData'>, key = ACCOUNT.hmacKey) => ({
    live: 'false',
    notificationItems: [{ NotificationRequestItem: { additionalData: { hmacSignature: adyenSignature(fields, key) }, ...fields } }],
  });

  it('keeps a refusal’s reason with its status, never a success’s (an AUTHORISATION reason holds card digits)', () => {
    const refused = read(signed(item({ success: 'false', reason: 'CVC Declined', pspReference: '8800000000000004' })));
    expect(refused.transactions).toEqual([{ transactionId: '8800000000000004', status: 'failed', providerStatus: 'AUTHORISATION:false (CVC Declined)' }]);
    const authorised = read(signed(item({ reason: '874574:1111:03/2030', pspReference: '8800000000000005' })));
    expect(authorised.transactions).toEqual([{ transactionId: '8800000000000005', status: 'authorized', providerStatus: 'AUTHORISATION:true' }]);
  });

  it('reads each signed item: a modification names its payment by originalReference', () => {
    const body = {
      live: 'false',
      notificationItems: [
        signed(item({ eventCode: 'AUTHORISATION', success: 'false', pspReference: '8800000000000001' })).notificationItems[0],
        signed(item({ eventCode: 'CHARGEBACK', pspReference: '8800000000000003', originalReference: '8800000000000002' })).notificationItems[0],
        signed(item({ eventCode: 'REPORT_AVAILABLE', pspReference: 'report.csv' })).notificationItems[0],
      ],
    };
    expect(read(body)).toEqual({
      transactions: [
        { transactionId: '8800000000000001', status: 'failed', providerStatus: 'AUTHORISATION:false' },
        { transactionId: '8800000000000002', status: 'charged_back', providerStatus: 'CHARGEBACK:true' },
      ],
      reply: { status: 200, body: { notificationResponse: '[accepted]' } },
    });
  });

  it('refuses a post with a bad signature, another account’s item, a missing signature or no JSON', () => {
    const good = signed(item());
    const tampered = structuredClone(good);
    tampered.notificationItems[0]!.NotificationRequestItem.amount.value = 1;
    expect(() => read(tampered)).toThrow(NotificationRefusedError);
    expect(() => read(signed(item(), OTHER.hmacKey))).toThrow(NotificationRefusedError);
    expect(() => read(signed(item({ merchantAccountCode: OTHER.merchantAccount })))).toThrow(/another merchant account/);
    const unsigned = structuredClone(good) as { notificationItems: Array<{ NotificationRequestItem: { additionalData: Record<string, string> } }> };
    unsigned.notificationItems[0]!.NotificationRequestItem.additionalData = {};
    expect(() => read(unsigned)).toThrow(NotificationRefusedError);
    expect(() => adyenNotifications.read({ headers: {}, query: {}, rawBody: Buffer.from('not json') }, credentials())).toThrow(NotificationRefusedError);
    expect(() => read({ live: 'false', notificationItems: [] })).toThrow(NotificationRefusedError);
    // A live post to a sandbox entry, a test post to a production one.
    expect(() => read({ ...good, live: 'true' })).toThrow(/other environment/);
    expect(() => read(good, { type: 'ADYEN', ...ACCOUNT, liveEndpointUrlPrefix: '1797a841fbb37ca7-AdyenDemo' })).toThrow(/other environment/);
    expect(read({ ...good, live: 'true' }, { type: 'ADYEN', ...ACCOUNT, liveEndpointUrlPrefix: '1797a841fbb37ca7-AdyenDemo' }).transactions).toHaveLength(1);
    expect(() => read(good, { type: 'ADYEN' })).toThrow(NotificationRefusedError);
    let message = '';
    try {
      read(signed(item(), OTHER.hmacKey));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain(ACCOUNT.hmacKey);
    expect(read(good).transactions).toHaveLength(1);
  });
});
