import { randomUUID } from 'node:crypto';
import { adyenClientEncryptionKeys, startAdyenSimulator, testTls, type AdyenNotification, type RunningAdyenSimulator } from '@platform/simulators';
import { forgetTrustedAuthorities } from '../../../src/modules/connectors/kit/http';
import { cardCharge, inlineCard, paymentSource, providerIdOf, startCharges, type RunningCharges } from '../../support/charges';

/**
 * Charges routed to Adyen through the payments service in-process: its registry makes the Adyen adapter over the
 * operator's ADYEN_CHECKOUT_URL, here the simulator's (HTTPS with the test CA, trusted through NODE_EXTRA_CA_CERTS).
 * Adyen takes captures, cancellations and refunds as `received`; the signed notification it posts settles them.
 */

const tls = testTls();
const ACCOUNT = { apiKey: 'AQEyhmfxK4_platform_charges_key_0001', merchantAccount: 'LojaAdyenECOM', hmacKey: 'A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90' };
const KEYS = adyenClientEncryptionKeys();
/** A merchant account without the API PCI role: it takes the card's fields encrypted only. */
const ENCRYPTED = { apiKey: 'AQEyhmfxK4_platform_encrypted_key_0002', merchantAccount: 'LojaCseECOM', hmacKey: '5A'.repeat(32), rawCardData: false, clientEncryptionPrivateKey: KEYS.privateKey };
const VISA = '4111111111111111';

let simulator: RunningAdyenSimulator;
let running: RunningCharges;
const saved = { url: process.env.ADYEN_CHECKOUT_URL, ca: process.env.NODE_EXTRA_CA_CERTS };

beforeAll(async () => {
  simulator = await startAdyenSimulator({
    accounts: [ACCOUNT, ENCRYPTED],
    clock: () => new Date('2026-03-10T15:00:00Z'),
    // The service's connector stamps encrypted fields with the system time, as Adyen requires; this simulator's
    // clock is fixed, so its one-day window for them is opened up.
    generationTimeWindowMs: Number.MAX_SAFE_INTEGER,
  });
  process.env.ADYEN_CHECKOUT_URL = simulator.checkoutUrl;
  process.env.NODE_EXTRA_CA_CERTS = tls.caFile;
  forgetTrustedAuthorities();
  // The Adyen library opens a TLS connection per request (a fresh https agent each time): on a busy machine that
  // takes longer than the suite's 200 ms provider deadline, which is for plain loopback HTTP.
  running = await startCharges({ ADYEN_CHECKOUT_URL: simulator.checkoutUrl, PROVIDER_TIMEOUT_MS: '5000' });
});

afterAll(async () => {
  await running.stop();
  await simulator.close();
  for (const [name, value] of [['ADYEN_CHECKOUT_URL', saved.url], ['NODE_EXTRA_CA_CERTS', saved.ca]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  forgetTrustedAuthorities();
});

async function adyenMerchant(clientId: string) {
  const merchant = await running.client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Adyen',
    merchantName: 'Loja Adyen',
    merchantUrl: 'https://loja.example.test',
    providers: [{ name: 'adyen', priority: 1, credentials: { type: 'ADYEN', ...ACCOUNT, environment: 'sandbox' }, options: {} }],
  });
  return { merchantId: merchant.id, providerId: providerIdOf(merchant, 'adyen') };
}

const adyenCard = (holderName = 'Maria Souza') => paymentSource({ card: { ...inlineCard(VISA, '737'), cardExpirationDate: '03/2030', cardHolderName: holderName } });
const pspOf = (charge: { transactionRequests: Array<{ requestType: string; requestStatus: string; transactionId: string }> }) =>
  charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.requestStatus === 'success')!.transactionId;

async function post(providerId: string, notification: AdyenNotification) {
  return running.client.receiveProviderNotification({ providerId, headers: { 'content-type': 'application/json' }, query: {}, rawBody: Buffer.from(JSON.stringify(notification)) });
}

/** The last notification of an event about a payment, once the simulator settled what it took. */
async function notificationOf(psp: string, eventCode: string): Promise<AdyenNotification> {
  await simulator.idle();
  const found = simulator.notifications.filter((n) => {
    const item = n.notificationItems[0]!.NotificationRequestItem;
    return item.eventCode === eventCode && (item.originalReference ?? item.pspReference) === psp;
  });
  if (found.length === 0) throw new Error(`no ${eventCode} notification for ${psp}`);
  return found.at(-1)!;
}

describe('Charges at Adyen', () => {
  it('pre-authorizes, captures part (pending until the CAPTURE notification), then refunds part (pending until REFUND)', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await adyenMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { amount: 1000, capture: false, paymentSource: adyenCard() }));
    expect(charge).toMatchObject({ status: 'pre_authorized', providerId });
    const psp = pspOf(charge);
    expect(simulator.payment(psp)).toMatchObject({ amount: 1000, manualCapture: true });

    const capturing = await running.client.captureCharge({ clientId, id: charge.id, amount: 600 });
    expect(capturing.status).toBe('capture_pending');
    const reply = await post(providerId, await notificationOf(psp, 'CAPTURE'));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.bodyJson)).toEqual({ notificationResponse: '[accepted]' });
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: 600 });

    const refunding = await running.client.voidCharge({ clientId, id: charge.id, amount: 200, splitRules: [] });
    expect(refunding.status).toBe('refund_pending');
    await post(providerId, await notificationOf(psp, 'REFUND'));
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: 600, refundedAmount: 200 });
    expect(simulator.payment(psp)).toMatchObject({ capturedAmount: 600, refundedAmount: 200 });
  });

  it('settles each modification once: a CAPTURE or REFUND notification heard again refunds nothing more', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await adyenMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { amount: 1000, capture: false, paymentSource: adyenCard() }));
    const psp = pspOf(charge);
    await running.client.captureCharge({ clientId, id: charge.id, amount: 800 });
    const capture = await notificationOf(psp, 'CAPTURE');
    await post(providerId, capture);
    await running.client.voidCharge({ clientId, id: charge.id, amount: 300, splitRules: [] });
    const refund = await notificationOf(psp, 'REFUND');
    await post(providerId, refund);
    const settled = await running.client.getCharge({ clientId, id: charge.id });
    expect(settled).toMatchObject({ status: 'authorized', capturedAmount: 800, refundedAmount: 300 });

    // Adyen sends again what it is not sure was received: each post changes nothing now.
    for (const again of [refund, capture, refund]) expect((await post(providerId, again)).status).toBe(200);
    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after).toMatchObject({ status: 'authorized', capturedAmount: 800, refundedAmount: 300 });
    expect(after.updatedAt).toEqual(settled.updatedAt);
    expect(after.transactionRequests.filter((r) => r.requestType === 'refund')).toHaveLength(1);
  });

  it('a capture Adyen refuses leaves the pre-authorization as it was, its request failed', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await adyenMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { amount: 1000, capture: false, paymentSource: adyenCard() }));
    const psp = pspOf(charge);
    // Cancelled at Adyen meanwhile (as from its Customer Area): the capture the platform asks next is refused.
    simulator.cancelAtAdyen(psp);
    expect((await running.client.captureCharge({ clientId, id: charge.id, amount: 1000 })).status).toBe('capture_pending');
    await post(providerId, await notificationOf(psp, 'CAPTURE'));
    const after = await running.client.getCharge({ clientId, id: charge.id });
    expect(after.status).toBe('pre_authorized');
    expect(after.transactionRequests.filter((r) => r.requestType === 'capture').at(-1)).toMatchObject({ requestStatus: 'failed' });
  });

  it('voids a pre-authorization: the CANCELLATION notification releases it', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await adyenMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { amount: 1500, capture: false, paymentSource: adyenCard() }));
    const psp = pspOf(charge);
    await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    await post(providerId, await notificationOf(psp, 'CANCELLATION'));
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'voided' });
    expect(simulator.payment(psp)).toMatchObject({ cancelled: true });
  });

  it('a payment Adyen has Received stays pending until its signed AUTHORISATION notification', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await adyenMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { amount: 1800, capture: false, paymentSource: adyenCard('PENDING') }));
    expect(charge.status).toBe('pending');
    const psp = charge.transactionRequests.find((r) => r.requestType === 'authorization')!.transactionId;
    const notification = await simulator.completePending(psp, true);
    await post(providerId, notification);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'pre_authorized' });
    const captured = await running.client.getCharge({ clientId, id: charge.id });
    // The same notification again changes nothing.
    await post(providerId, notification);
    expect((await running.client.getCharge({ clientId, id: charge.id })).updatedAt).toEqual(captured.updatedAt);
  });

  it('an entry whose account takes no raw card data sends the card’s fields encrypted, as its options say', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant({
      clientId,
      mcc: '5999',
      name: 'Loja CSE',
      merchantName: 'Loja CSE',
      merchantUrl: 'https://loja.example.test',
      providers: [
        {
          name: 'adyen',
          priority: 1,
          credentials: { type: 'ADYEN', apiKey: ENCRYPTED.apiKey, merchantAccount: ENCRYPTED.merchantAccount, hmacKey: ENCRYPTED.hmacKey, environment: 'sandbox' },
          options: { cardData: 'encrypted', clientEncryptionPublicKey: KEYS.publicKey },
        },
      ],
    });
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, VISA, { amount: 2200, paymentSource: adyenCard() }));
    expect(charge).toMatchObject({ status: 'authorized', capturedAmount: 2200 });
    const request = simulator.exchanges.filter((e) => e.route === '/payments').at(-1)!.requestBody as { paymentMethod: Record<string, unknown> };
    expect(request.paymentMethod).toHaveProperty('encryptedCardNumber');
    expect(request.paymentMethod).not.toHaveProperty('number');
  });

  it('a refusal fails the charge with the mapped code', async () => {
    const clientId = randomUUID();
    const { merchantId } = await adyenMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { paymentSource: adyenCard('NOT_ENOUGH_BALANCE') }));
    expect(charge.status).toBe('failed');
    expect(charge.transactionRequests[0]).toMatchObject({ requestStatus: 'declined', declinedCode: 'insufficient_funds', providerType: 'ADYEN' });
  });

  it('a notification whose signature does not verify is refused and changes nothing', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await adyenMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { amount: 1000, capture: false, paymentSource: adyenCard() }));
    const psp = pspOf(charge);
    const forged: AdyenNotification = {
      live: 'false',
      notificationItems: [
        {
          NotificationRequestItem: {
            additionalData: { hmacSignature: simulator.sign({ amount: { currency: 'BRL', value: 1000 }, eventCode: 'CANCELLATION', eventDate: '2026-03-10T15:00:00+00:00', merchantAccountCode: ACCOUNT.merchantAccount, merchantReference: charge.id, originalReference: psp, pspReference: '8800000000009999', success: 'true' }, '00'.repeat(32)) },
            amount: { currency: 'BRL', value: 1000 },
            eventCode: 'CANCELLATION',
            eventDate: '2026-03-10T15:00:00+00:00',
            merchantAccountCode: ACCOUNT.merchantAccount,
            merchantReference: charge.id,
            originalReference: psp,
            pspReference: '8800000000009999',
            success: 'true',
          },
        },
      ],
    };
    await expect(post(providerId, forged)).rejects.toThrow('The notification could not be verified');
    expect((await running.client.getCharge({ clientId, id: charge.id })).status).toBe('pre_authorized');
  });
});
