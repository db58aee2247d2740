import { randomUUID } from 'node:crypto';
import { startStripeSimulator, type RunningStripeSimulator } from '@platform/simulators';
import { cardCharge, paymentMethod, pixCharge, providerIdOf, startCharges, type RunningCharges } from '../../support/charges';
import { providerInput } from '../../support/fixtures';

/**
 * Charges routed to Stripe, through the payments service in-process: its registry makes the Stripe adapter over
 * the operator's STRIPE_API_URL, here the simulator's. The simulator signs its events at the time the connector
 * checks them against (the process's clock, as in production).
 */

const SECRET_KEY = 'sk_test_51PgafyB7WZ01zgkWserviceLevel0001';
const WEBHOOK_SECRET = 'whsec_serviceLevelSigningSecret0001';

let sim: RunningStripeSimulator;
let running: RunningCharges;
let saved: string | undefined;

beforeAll(async () => {
  sim = await startStripeSimulator({ accounts: [{ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET }] });
  saved = process.env.STRIPE_API_URL;
  process.env.STRIPE_API_URL = sim.url;
  // A provider's deadline for a loaded machine: these tests wait for answers, none for a timeout.
  running = await startCharges({ PROVIDER_TIMEOUT_MS: '5000' });
});

afterAll(async () => {
  await running.stop();
  await sim.close();
  if (saved === undefined) delete process.env.STRIPE_API_URL;
  else process.env.STRIPE_API_URL = saved;
});

async function stripeMerchant(clientId: string) {
  return running.client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Stripe',
    merchantName: 'Loja Stripe',
    merchantUrl: 'https://loja.example.test',
    providers: [{ name: 'stripe', priority: 1, credentials: { type: 'STRIPE', secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, environment: 'sandbox' }, options: {} }],
  });
}

describe('Charges at Stripe', () => {
  it('pre-authorizes at Stripe, captures part, then refunds it', async () => {
    const clientId = randomUUID();
    const merchant = await stripeMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, '4242424242424242', { amount: 1000, capture: false }));
    expect(charge).toMatchObject({ status: 'pre_authorized', providerId: providerIdOf(merchant, 'stripe') });
    const intentId = charge.transactionRequests[0]!.transactionId;
    expect(intentId).toMatch(/^pi_/);
    expect(sim.paymentIntent(intentId)).toMatchObject({ status: 'requires_capture', amount: 1000, capture_method: 'manual' });

    const captured = await running.client.captureCharge({ clientId, id: charge.id, amount: 600 });
    expect(captured).toMatchObject({ status: 'authorized', capturedAmount: 600 });
    expect(sim.paymentIntent(intentId)).toMatchObject({ status: 'succeeded', amount_received: 600 });

    const refunded = await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    expect(refunded).toMatchObject({ status: 'voided', refundedAmount: 600 });
    expect(sim.paymentIntent(intentId)).toMatchObject({ latest_charge: { amount_refunded: 1000, amount_captured: 600 } });
  });

  it('a card Stripe declines fails the charge with the mapped code', async () => {
    const clientId = randomUUID();
    const merchant = await stripeMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, '4000000000009995'));
    expect(charge.status).toBe('failed');
    expect(charge.transactionRequests[0]).toMatchObject({ requestStatus: 'declined', declinedCode: 'insufficient_funds', providerType: 'STRIPE' });
    expect(charge.transactionRequests[0]!.message).toContain('insufficient_funds');
  });

  it('a processing error at Stripe is technical: the charge moves on to the next provider', async () => {
    const clientId = randomUUID();
    const merchant = await running.client.createMerchant({
      clientId,
      mcc: '5999',
      name: 'Loja Stripe',
      merchantName: 'Loja Stripe',
      merchantUrl: 'https://loja.example.test',
      providers: [
        { name: 'stripe', priority: 1, credentials: { type: 'STRIPE', secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, environment: 'sandbox' }, options: {} },
        providerInput({ name: 'sandbox', priority: 2 }),
      ],
    });
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, '4000000000000119'));
    expect(charge.transactionRequests.map((r) => [r.providerType, r.requestStatus, r.declinedCode])).toEqual([
      ['STRIPE', 'failed', 'try_again'],
      ['SANDBOX', 'declined', 'generic'],
    ]);
    expect(charge.transactionRequests[0]!.transactionId).toMatch(/^pi_/);
  });

  it('a Pix at Stripe is pending with its QR code until the signed event, read back by query, confirms it; a forged one is refused', async () => {
    const clientId = randomUUID();
    const merchant = await stripeMerchant(clientId);
    const charge = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 2500, paymentMethod: paymentMethod({ paymentType: 'pix', expiresIn: 3600 }) }));
    expect(charge.status).toBe('pending');
    expect(charge.paymentMethod?.qrCodeData).toMatch(/^000201/);
    const intentId = charge.transactionRequests[0]!.transactionId;
    const providerId = providerIdOf(merchant, 'stripe');

    await sim.payPix(intentId);
    const delivery = sim.events().find((d) => d.event.type === 'payment_intent.succeeded' && d.event.data.object.id === intentId)!;
    await expect(
      running.client.receiveProviderNotification({
        providerId,
        headers: { 'content-type': 'application/json', 'stripe-signature': sim.sign(delivery.payload, 'whsec_someoneElsesSecret0001') },
        query: {},
        rawBody: Buffer.from(delivery.payload),
      }),
    ).rejects.toThrow(/could not be verified/);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'pending' });

    const reply = await running.client.receiveProviderNotification({
      providerId,
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
      query: {},
      rawBody: Buffer.from(delivery.payload),
    });
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized' });
  });
});
