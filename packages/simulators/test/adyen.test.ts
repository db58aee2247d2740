import { constants, createCipheriv, createHmac, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readBody } from '../src/http';
import { adyenClientEncryptionKeys, decryptField, startAdyenSimulator, type AdyenNotification, type RunningAdyenSimulator } from '../src/adyen';
import { testTls } from '../src/pix/tls';

const tls = testTls();
const ACCOUNT = { apiKey: 'AQE_simulator_test_key_0001', merchantAccount: 'StoreECOM', hmacKey: '0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF' };
const KEYS = adyenClientEncryptionKeys();
const ENCRYPTED = { apiKey: 'AQE_simulator_test_key_0003', merchantAccount: 'EncryptedECOM', hmacKey: '33'.repeat(32), rawCardData: false, clientEncryptionPrivateKey: KEYS.privateKey };

/** A field as Adyen's client-side encryption writes it (compact JWE, RSA-OAEP-256 and A256CBC-HS512), built here from RFC 7516/7518. */
function jwe(publicKey: string, plain: Record<string, string>): string {
  const [e, n] = publicKey.split('|') as [string, string];
  const b64 = (hex: string) => Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex').toString('base64url');
  const key = createPublicKey({ key: { kty: 'RSA', e: b64(e), n: b64(n) }, format: 'jwk' });
  const header = Buffer.from(JSON.stringify({ alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512', version: '1' })).toString('base64url');
  const cek = randomBytes(64);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', cek.subarray(32), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(plain)), cipher.final()]);
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(header.length * 8));
  const tag = createHmac('sha512', cek.subarray(0, 32)).update(Buffer.concat([Buffer.from(header), iv, ciphertext, length])).digest().subarray(0, 32);
  const wrapped = publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, cek);
  return [header, wrapped.toString('base64url'), iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join('.');
}

const OTHER = { apiKey: 'AQE_simulator_test_key_0002', merchantAccount: 'OtherECOM', hmacKey: 'FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210FEDCBA9876543210' };

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('Adyen Checkout simulator', () => {
  let simulator: RunningAdyenSimulator;
  let merchant: Server;
  const received: AdyenNotification[] = [];
  let references = 0;

  beforeAll(async () => {
    merchant = createServer((req, res) => {
      void readBody(req).then((body) => {
        received.push(JSON.parse(body.toString('utf8')) as AdyenNotification);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"notificationResponse":"[accepted]"}');
      });
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    const port = (merchant.address() as AddressInfo).port;
    simulator = await startAdyenSimulator({
      accounts: [ACCOUNT, OTHER, ENCRYPTED],
      clock: () => new Date('2026-03-10T12:00:00Z'),
      webhookUrl: `http://127.0.0.1:${port}/v1/provider-notifications/entry`,
      webhookDelayMs: 0,
    });
  });
  afterAll(async () => {
    await simulator.close();
    await new Promise<void>((resolve) => merchant.close(() => resolve()));
  });

  const send = (path: string, body: unknown, key = ACCOUNT.apiKey, idempotencyKey?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const req = request(
        `${simulator.checkoutUrl}${path}`,
        { method: 'POST', ca: tls.ca, headers: { 'content-type': 'application/json', 'x-api-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) } },
        (res) => {
          void readBody(res).then((raw) => resolve({ status: res.statusCode ?? 0, body: JSON.parse(raw.toString('utf8')) as Record<string, unknown> }));
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  const payment = (overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) => ({
    amount: { currency: 'BRL', value: 1000 },
    reference: `order-${++references}`,
    merchantAccount: ACCOUNT.merchantAccount,
    returnUrl: 'https://shop.example/return',
    paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737', holderName: 'Maria Souza', ...card },
    ...overrides,
  });
  const events = async (psp: string) => {
    await simulator.idle();
    return simulator.notifications
      .map((n) => n.notificationItems[0]!.NotificationRequestItem)
      .filter((item) => (item.originalReference ?? item.pspReference) === psp)
      .map((item) => `${item.eventCode}:${item.success}`);
  };
  /** "Verify HMAC signatures", computed here from the manual, not by the simulator. */
  const verified = (notification: AdyenNotification, hmacKey: string) => {
    const item = notification.notificationItems[0]!.NotificationRequestItem;
    const data = [item.pspReference, item.originalReference ?? '', item.merchantAccountCode, item.merchantReference, item.amount.value, item.amount.currency, item.eventCode, item.success].join(':');
    return createHmac('sha256', Buffer.from(hmacKey, 'hex')).update(data).digest('base64') === item.additionalData.hmacSignature;
  };

  it('authorises a test card and posts its signed AUTHORISATION notification to the webhook', async () => {
    const answer = await send('/payments', payment({ captureDelayHours: 0 }));
    expect(answer).toMatchObject({ status: 200, body: { resultCode: 'Authorised', amount: { currency: 'BRL', value: 1000 } } });
    const psp = answer.body.pspReference as string;
    expect(psp).toMatch(/^\d{16}$/);
    expect(simulator.payment(psp)).toMatchObject({ capturedAmount: 1000, manualCapture: false });
    expect(await events(psp)).toEqual(['AUTHORISATION:true']);
    const notification = simulator.notifications.at(-1)!;
    expect(verified(notification, ACCOUNT.hmacKey)).toBe(true);
    expect(verified(notification, OTHER.hmacKey)).toBe(false);
    expect(received.at(-1)).toEqual(notification);
    expect(simulator.deliveries.at(-1)).toMatchObject({ status: 200 });
  });

  it('holds a manual capture until captured; a second capture and a cancellation after it are refused in their notifications', async () => {
    const psp = (await send('/payments', payment({ additionalData: { manualCapture: 'true' } }))).body.pspReference as string;
    expect(simulator.payment(psp)).toMatchObject({ capturedAmount: 0, manualCapture: true });
    const capture = await send(`/payments/${psp}/captures`, { merchantAccount: ACCOUNT.merchantAccount, amount: { currency: 'BRL', value: 600 } });
    expect(capture).toMatchObject({ status: 201, body: { status: 'received', paymentPspReference: psp, amount: { currency: 'BRL', value: 600 } } });
    await send(`/payments/${psp}/captures`, { merchantAccount: ACCOUNT.merchantAccount, amount: { currency: 'BRL', value: 100 } });
    await send(`/payments/${psp}/cancels`, { merchantAccount: ACCOUNT.merchantAccount });
    expect(await events(psp)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'CAPTURE:false', 'CANCELLATION:false']);
    expect(simulator.payment(psp)).toMatchObject({ capturedAmount: 600, cancelled: false });
    const item = simulator.notifications.at(-1)!.notificationItems[0]!.NotificationRequestItem;
    expect(item.originalReference).toBe(psp);
  });

  it('refunds in parts up to what was captured', async () => {
    const psp = (await send('/payments', payment())).body.pspReference as string;
    for (const value of [400, 600, 1]) await send(`/payments/${psp}/refunds`, { merchantAccount: ACCOUNT.merchantAccount, amount: { currency: 'BRL', value } });
    expect(await events(psp)).toEqual(['AUTHORISATION:true', 'REFUND:true', 'REFUND:true', 'REFUND:false']);
    expect(simulator.payment(psp)).toMatchObject({ refundedAmount: 1000 });
  });

  it('cancels an uncaptured authorisation once', async () => {
    const psp = (await send('/payments', payment({ additionalData: { manualCapture: 'true' } }))).body.pspReference as string;
    await send(`/payments/${psp}/cancels`, { merchantAccount: ACCOUNT.merchantAccount });
    await send(`/payments/${psp}/captures`, { merchantAccount: ACCOUNT.merchantAccount, amount: { currency: 'BRL', value: 1000 } });
    expect(await events(psp)).toEqual(['AUTHORISATION:true', 'CANCELLATION:true', 'CAPTURE:false']);
  });

  it('follows the test platform: forced refusals by holder name, a wrong CVC or expiry, a card that is not a test card', async () => {
    const refused = async (card: Record<string, unknown>) => {
      const { body } = await send('/payments', payment({}, card));
      return [body.resultCode, body.refusalReasonCode, body.refusalReason];
    };
    expect(await refused({ holderName: 'NOT_ENOUGH_BALANCE' })).toEqual(['Refused', '12', 'Not enough balance']);
    expect(await refused({ holderName: 'DECLINED : 06 : ERROR' })).toEqual(['Refused', '2', 'Refused']);
    expect(await refused({ holderName: 'ERROR' })).toEqual(['Error', '4', 'Acquirer Error']);
    expect(await refused({ holderName: 'FRAUD_CANCELLED' })).toEqual(['Cancelled', '22', 'FRAUD-CANCELLED']);
    expect(await refused({ cvc: '123' })).toEqual(['Refused', '2', 'Refused']);
    expect(await refused({ expiryYear: '2031' })).toEqual(['Refused', '2', 'Refused']);
    expect(await refused({ number: '4000000000000002' })).toEqual(['Refused', '8', 'Invalid Card Number']);
    expect(await refused({ number: '370000000000002', cvc: '7373' })).toEqual(['Authorised', undefined, undefined]);
    const byCode = await send('/payments', payment({ additionalData: { RequestedTestAcquirerResponseCode: '6' } }));
    expect(byCode.body).toMatchObject({ resultCode: 'Refused', refusalReasonCode: '6' });
  });

  it('a PENDING holder name is Received until completed; the failed-modification holder names fail after success', async () => {
    const pending = await send('/payments', payment({}, { holderName: 'PENDING' }));
    expect(pending.body.resultCode).toBe('Received');
    const psp = pending.body.pspReference as string;
    expect(await events(psp)).toEqual([]);
    await simulator.completePending(psp, true);
    expect(await events(psp)).toEqual(['AUTHORISATION:true']);

    const captureFails = (await send('/payments', payment({ additionalData: { manualCapture: 'true' } }, { holderName: 'capture failed' }))).body.pspReference as string;
    await send(`/payments/${captureFails}/captures`, { merchantAccount: ACCOUNT.merchantAccount, amount: { currency: 'BRL', value: 1000 } });
    expect(await events(captureFails)).toEqual(['AUTHORISATION:true', 'CAPTURE:true', 'CAPTURE_FAILED:true']);
    const refundFails = (await send('/payments', payment({}, { holderName: 'refund failed' }))).body.pspReference as string;
    await send(`/payments/${refundFails}/refunds`, { merchantAccount: ACCOUNT.merchantAccount, amount: { currency: 'BRL', value: 1000 } });
    expect(await events(refundFails)).toEqual(['AUTHORISATION:true', 'REFUND:true', 'REFUND_FAILED:true']);
  });

  it('posts each account’s notifications to its own webhook URL, which can be changed or removed', async () => {
    const posted = received.length;
    simulator.setWebhookUrl(ACCOUNT.merchantAccount, undefined);
    const quiet = (await send('/payments', payment())).body.pspReference as string;
    expect(await events(quiet)).toEqual(['AUTHORISATION:true']);
    expect(received.length).toBe(posted);
    const port = (merchant.address() as AddressInfo).port;
    simulator.setWebhookUrl(ACCOUNT.merchantAccount, `http://127.0.0.1:${port}/v1/provider-notifications/another-entry`);
    const heard = (await send('/payments', payment())).body.pspReference as string;
    await simulator.idle();
    expect(received.at(-1)!.notificationItems[0]!.NotificationRequestItem.pspReference).toBe(heard);
    expect(() => simulator.setWebhookUrl('NoSuchAccount', undefined)).toThrow();
  });

  it('posts a notification a moment after its event, never inside the answer, and drops what is still waiting at close', async () => {
    const port = (merchant.address() as AddressInfo).port;
    const slow = await startAdyenSimulator({ accounts: [ACCOUNT], webhookUrl: `http://127.0.0.1:${port}/slow`, webhookDelayMs: 60_000 });
    const posted = received.length;
    const answer = await new Promise<number>((resolve, reject) => {
      const req = request(`${slow.checkoutUrl}/payments`, { method: 'POST', ca: tls.ca, headers: { 'content-type': 'application/json', 'x-api-key': ACCOUNT.apiKey } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(payment()));
    });
    expect(answer).toBe(200);
    expect(slow.notifications).toHaveLength(1);
    expect(received.length).toBe(posted);
    await slow.close();
    await slow.idle();
    expect(slow.deliveries).toEqual([{ error: 'not delivered', body: slow.notifications[0] }]);
    expect(received.length).toBe(posted);
  });

  it('answers a repeated Idempotency-Key with the first answer and creates nothing', async () => {
    const before = simulator.paymentsCreated();
    const body = payment();
    const first = await send('/payments', body, ACCOUNT.apiKey, 'same-key-1');
    const again = await send('/payments', body, ACCOUNT.apiKey, 'same-key-1');
    expect(again).toEqual(first);
    expect(simulator.paymentsCreated()).toBe(before + 1);
    // Another account's same key is its own.
    const other = await send('/payments', { ...body, merchantAccount: OTHER.merchantAccount }, OTHER.apiKey, 'same-key-1');
    expect(other.body.pspReference).not.toBe(first.body.pspReference);
  });

  it('takes encrypted card fields with the account’s client encryption key, and refuses raw data where the account may not send it', async () => {
    const at = '2026-03-10T11:00:00.000Z';
    const method = {
      type: 'scheme',
      encryptedCardNumber: jwe(KEYS.publicKey, { number: '4111111111111111', generationtime: at }),
      encryptedExpiryMonth: jwe(KEYS.publicKey, { expiryMonth: '03', generationtime: at }),
      encryptedExpiryYear: jwe(KEYS.publicKey, { expiryYear: '2030', generationtime: at }),
      encryptedSecurityCode: jwe(KEYS.publicKey, { cvc: '737', generationtime: at }),
      holderName: 'Maria Souza',
    };
    const body = { ...payment({ merchantAccount: ENCRYPTED.merchantAccount }), paymentMethod: method };
    expect(await send('/payments', body, ENCRYPTED.apiKey)).toMatchObject({ status: 200, body: { resultCode: 'Authorised' } });
    expect(decryptField(KEYS.privateKey, 'number', method.encryptedCardNumber)).toEqual({ value: '4111111111111111', generatedAt: new Date(at) });
    expect(decryptField(KEYS.privateKey, 'cvc', method.encryptedCardNumber)).toBeUndefined();
    const parts = method.encryptedSecurityCode.split('.');
    const tag = Buffer.from(parts[4]!, 'base64url');
    tag[0] = tag[0]! ^ 0xff;
    const tampered = [...parts.slice(0, 4), tag.toString('base64url')].join('.');
    expect(await send('/payments', { ...body, paymentMethod: { ...method, encryptedSecurityCode: tampered } }, ENCRYPTED.apiKey)).toMatchObject({ status: 422, body: { errorCode: '174' } });
    const stale = jwe(KEYS.publicKey, { number: '4111111111111111', generationtime: '2026-03-08T11:00:00.000Z' });
    expect(await send('/payments', { ...body, paymentMethod: { ...method, encryptedCardNumber: stale } }, ENCRYPTED.apiKey)).toMatchObject({ status: 422, body: { errorCode: '174' } });
    expect(await send('/payments', payment({ merchantAccount: ENCRYPTED.merchantAccount }), ENCRYPTED.apiKey)).toMatchObject({ status: 403, body: { errorCode: '010' } });
  });

  it('answers Adyen’s ServiceError shapes: a bad key, another account, malformed requests, an unknown payment', async () => {
    expect(await send('/payments', payment(), 'AQE_unknown_key')).toEqual({ status: 401, body: { status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' } });
    expect(await send('/payments', payment({ merchantAccount: OTHER.merchantAccount }))).toMatchObject({ status: 403, body: { errorCode: '901', errorType: 'security' } });
    expect(await send('/payments', payment({ amount: { currency: 'BRL', value: 10.5 } }))).toMatchObject({ status: 422, body: { errorCode: '137' } });
    expect(await send('/payments', payment({ returnUrl: undefined }))).toMatchObject({ status: 422, body: { errorCode: '14_030' } });
    expect(await send('/payments', payment({}, { number: '4111111111111112' }))).toMatchObject({ status: 422, body: { errorCode: '101' } });
    expect(await send('/payments', '{not json')).toMatchObject({ status: 400, body: { errorCode: '702' } });
    expect(await send('/payments/8800000000000000/refunds', { merchantAccount: ACCOUNT.merchantAccount, amount: { currency: 'BRL', value: 1 } })).toMatchObject({ status: 422, body: { errorCode: '167' } });
    const psp = (await send('/payments', payment())).body.pspReference as string;
    // Another account's payment is unknown to this one.
    expect(await send(`/payments/${psp}/refunds`, { merchantAccount: OTHER.merchantAccount, amount: { currency: 'BRL', value: 1 } }, OTHER.apiKey)).toMatchObject({ status: 422 });
  });
});
