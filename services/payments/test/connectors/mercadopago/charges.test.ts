import { randomUUID } from 'node:crypto';
import { MERCADOPAGO_TEST_CARDS, startMercadoPagoSimulator, type MercadoPagoNotification, type MercadoPagoSimulator } from '@platform/simulators';
import { cardCharge, inlineCard, paymentSource, pixCharge, providerIdOf, startCharges, type RunningCharges } from '../../support/charges';

/**
 * Charges routed to Mercado Pago, through the payments service in-process: its registry makes the Mercado Pago
 * adapter over the operator's MERCADOPAGO_API_URL, here the simulator's.
 */

const ACCOUNT = { accessToken: 'TEST-1234567890123456-031012-0123456789abcdef0123456789abcdef-123456789', webhookSecret: 'webhook-secret-of-the-application' };
const VISA = MERCADOPAGO_TEST_CARDS.visa.number;

let sim: MercadoPagoSimulator;
let running: RunningCharges;
const notifications: MercadoPagoNotification[] = [];
let saved: string | undefined;

beforeAll(async () => {
  // The adapter the service's registry makes dates a Pix's date_of_expiration by the process clock (a connector
  // definition is given no clock), and the simulator checks it against its own: both read the same one here.
  sim = await startMercadoPagoSimulator({ accounts: [ACCOUNT], clock: () => new Date(), notify: (n) => void notifications.push(n) });
  saved = process.env.MERCADOPAGO_API_URL;
  process.env.MERCADOPAGO_API_URL = sim.url;
  // A provider's deadline for a loaded machine: these tests wait for answers, none for a timeout.
  running = await startCharges({ PROVIDER_TIMEOUT_MS: '5000' });
});

afterAll(async () => {
  await running.stop();
  await sim.close();
  if (saved === undefined) delete process.env.MERCADOPAGO_API_URL;
  else process.env.MERCADOPAGO_API_URL = saved;
});

async function mercadoPagoMerchant(clientId: string) {
  return running.client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Mercado Pago',
    merchantName: 'Loja Mercado Pago',
    merchantUrl: 'https://loja.example.test',
    providers: [
      {
        name: 'mercadopago',
        priority: 1,
        credentials: { type: 'MERCADOPAGO', ...ACCOUNT, environment: 'sandbox' },
        options: { payerEmail: 'pagamentos@loja.example.test' },
      },
    ],
  });
}

describe('Charges at Mercado Pago', () => {
  it('pre-authorizes at Mercado Pago, captures part, then refunds it', async () => {
    const clientId = randomUUID();
    const merchant = await mercadoPagoMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, VISA, { amount: 1000, capture: false }));
    expect(charge).toMatchObject({ status: 'pre_authorized', providerId: providerIdOf(merchant, 'mercadopago') });
    const paymentId = charge.transactionRequests[0]!.transactionId;
    expect(sim.payment(paymentId)).toMatchObject({ status: 'authorized', amount: 1000, payer: { email: 'pagamentos@loja.example.test' } });

    const captured = await running.client.captureCharge({ clientId, id: charge.id, amount: 600 });
    expect(captured).toMatchObject({ status: 'authorized', capturedAmount: 600 });
    expect(sim.payment(paymentId)).toMatchObject({ status: 'approved', amount: 600 });

    const refunded = await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    expect(refunded).toMatchObject({ status: 'voided', refundedAmount: 600 });
    expect(sim.payment(paymentId)).toMatchObject({ status: 'refunded', refundedAmount: 600 });
  });

  it('a card Mercado Pago rejects fails the charge with the mapped code', async () => {
    const clientId = randomUUID();
    const merchant = await mercadoPagoMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, VISA, { paymentSource: paymentSource({ card: { ...inlineCard(VISA), cardHolderName: 'FUND' } }) }));
    expect(charge.status).toBe('failed');
    expect(charge.transactionRequests[0]).toMatchObject({ requestStatus: 'declined', declinedCode: 'insufficient_funds', providerType: 'MERCADOPAGO' });
    expect(charge.transactionRequests[0]!.message).toContain('cc_rejected_insufficient_amount');
  });

  it('a Pix at Mercado Pago is pending with its copia e cola until its signed notification, read back by query, confirms it', async () => {
    const clientId = randomUUID();
    const merchant = await mercadoPagoMerchant(clientId);
    const charge = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 2500 }));
    expect(charge.status).toBe('pending');
    expect(charge.paymentMethod?.qrCodeData).toMatch(/^000201/);
    const paymentId = charge.transactionRequests[0]!.transactionId;

    notifications.length = 0;
    sim.payPix(paymentId);
    const posted = notifications.find((n) => n.query['data.id'] === paymentId)!;
    const forged = await running.client
      .receiveProviderNotification({ providerId: providerIdOf(merchant, 'mercadopago'), headers: { ...posted.headers, 'x-signature': 'ts=1,v1=00' }, query: posted.query, rawBody: posted.rawBody })
      .catch((error: unknown) => error);
    expect(forged).toMatchObject({ message: expect.stringContaining('The notification could not be verified') });
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'pending' });

    const reply = await running.client.receiveProviderNotification({ providerId: providerIdOf(merchant, 'mercadopago'), headers: posted.headers, query: posted.query, rawBody: posted.rawBody });
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized' });
  });
});
