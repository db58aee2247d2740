import { randomUUID } from 'node:crypto';
import { startAdyenSimulator, testTls, type AdyenNotification, type RunningAdyenSimulator } from '@platform/simulators';
import { forgetTrustedAuthorities } from '../../../src/modules/connectors/kit/http';
import { cardCharge, inlineCard, paymentSource, providerIdOf, startCharges, type RunningCharges } from '../../support/charges';

/**
 * Adyen posts a payment's AUTHORISATION notification a moment after its answer, so a merchant that refunds or
 * captures at once may hear it while that operation is pending at Adyen. It is the news of the authorization, not of
 * the operation: the operation waits for its own notification (REFUND, CAPTURE, CANCELLATION).
 */

const ACCOUNT = { apiKey: 'AQEyhmfxK4_platform_late_auth_key_0003', merchantAccount: 'LojaLateECOM', hmacKey: 'C3'.repeat(32) };
const VISA = '4111111111111111';

let simulator: RunningAdyenSimulator;
let running: RunningCharges;
const saved = { url: process.env.ADYEN_CHECKOUT_URL, ca: process.env.NODE_EXTRA_CA_CERTS };

beforeAll(async () => {
  simulator = await startAdyenSimulator({ accounts: [ACCOUNT], clock: () => new Date('2026-03-10T15:00:00Z') });
  process.env.ADYEN_CHECKOUT_URL = simulator.checkoutUrl;
  process.env.NODE_EXTRA_CA_CERTS = testTls().caFile;
  forgetTrustedAuthorities();
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

const post = (providerId: string, notification: AdyenNotification) =>
  running.client.receiveProviderNotification({ providerId, headers: { 'content-type': 'application/json' }, query: {}, rawBody: Buffer.from(JSON.stringify(notification)) });

async function notificationOf(psp: string, eventCode: string): Promise<AdyenNotification> {
  await simulator.idle();
  const found = simulator.notifications.find((n) => {
    const item = n.notificationItems[0]!.NotificationRequestItem;
    return item.eventCode === eventCode && (item.originalReference ?? item.pspReference) === psp;
  });
  if (!found) throw new Error(`no ${eventCode} notification for ${psp}`);
  return found;
}

const chain = (charge: { transactionRequests: Array<{ requestType: string; requestStatus: string }> }) => charge.transactionRequests.map((r) => [r.requestType, r.requestStatus]);

describe('an AUTHORISATION notification heard while an operation is pending at Adyen', () => {
  it('leaves a partial refund pending; its REFUND notification then settles that amount alone', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await adyenMerchant(clientId);
    const source = paymentSource({ card: { ...inlineCard(VISA, '737'), cardExpirationDate: '03/2030', cardHolderName: 'Maria Souza' } });
    const charge = await running.client.createCharge(cardCharge(clientId, merchantId, VISA, { amount: 9000, paymentSource: source }));
    expect(charge).toMatchObject({ status: 'authorized', capturedAmount: 9000 });
    const psp = charge.transactionRequests.find((r) => r.requestType === 'authorization')!.transactionId;

    const refunding = await running.client.voidCharge({ clientId, id: charge.id, amount: 4000, splitRules: [] });
    expect(refunding.status).toBe('refund_pending');

    expect((await post(providerId, await notificationOf(psp, 'AUTHORISATION'))).status).toBe(200);
    const waiting = await running.client.getCharge({ clientId, id: charge.id });
    expect(waiting).toMatchObject({ status: 'refund_pending', refundedAmount: 0 });
    // The refund still waits at Adyen (a request being settled is not listed yet; a refused one would be).
    expect(chain(waiting)).toEqual([['authorization', 'success']]);

    expect((await post(providerId, await notificationOf(psp, 'REFUND'))).status).toBe(200);
    const refunded = await running.client.getCharge({ clientId, id: charge.id });
    expect(refunded).toMatchObject({ status: 'authorized', capturedAmount: 9000, refundedAmount: 4000 });
    expect(chain(refunded)).toEqual([
      ['authorization', 'success'],
      ['refund', 'success'],
    ]);
    expect(simulator.payment(psp)).toMatchObject({ refundedAmount: 4000 });
  });
});
