import { randomUUID } from 'node:crypto';
import { startCieloSimulator, type CieloNotification, type CieloSimulator } from '@platform/simulators';
import { cardCharge, cardNumberEnding, paymentMethod, paymentSource, pixCharge, providerIdOf, startCharges, type RunningCharges } from '../../support/charges';

/**
 * Charges routed to Cielo, through the payments service in-process: its registry makes the Cielo adapter over
 * the operator's CIELO_API_URL / CIELO_QUERY_URL, here the simulator's.
 */

const ACCOUNT = { merchantId: '9a7d3c1e-2b4f-4e6a-8c0d-1f2e3d4c5b6a', merchantKey: 'CIELOSIMULATORKEY0000000000000000000000' };
const VARIABLES = ['CIELO_API_URL', 'CIELO_QUERY_URL'] as const;

let sim: CieloSimulator;
let running: RunningCharges;
const notifications: CieloNotification[] = [];
const saved: Partial<Record<(typeof VARIABLES)[number], string | undefined>> = {};

beforeAll(async () => {
  sim = await startCieloSimulator({ merchants: [ACCOUNT], clock: () => new Date('2026-03-10T15:00:00Z'), notify: (n) => void notifications.push(n) });
  for (const name of VARIABLES) {
    saved[name] = process.env[name];
    process.env[name] = sim.url;
  }
  // A provider's deadline for a loaded machine: these tests wait for answers, none for a timeout.
  running = await startCharges({ PROVIDER_TIMEOUT_MS: '5000' });
});

afterAll(async () => {
  await running.stop();
  await sim.close();
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

async function cieloMerchant(clientId: string, options: Record<string, unknown> = { pixCustomer: { name: 'Maria Souza', identity: '12345678909' } }) {
  return running.client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Cielo',
    merchantName: 'Loja Cielo',
    merchantUrl: 'https://loja.example.test',
    providers: [
      {
        name: 'cielo',
        priority: 1,
        credentials: { type: 'CIELO', ...ACCOUNT, environment: 'sandbox' },
        options,
      },
    ],
  });
}

describe('Charges at Cielo', () => {
  it('pre-authorizes at Cielo, captures part, then refunds it', async () => {
    const clientId = randomUUID();
    const merchant = await cieloMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('1'), { amount: 1000, capture: false }));
    expect(charge).toMatchObject({ status: 'pre_authorized', providerId: providerIdOf(merchant, 'cielo') });
    const paymentId = charge.transactionRequests[0]!.transactionId;
    expect(sim.sale(paymentId)).toMatchObject({ status: 1, amount: 1000 });

    const captured = await running.client.captureCharge({ clientId, id: charge.id, amount: 600 });
    expect(captured).toMatchObject({ status: 'authorized', capturedAmount: 600 });
    expect(sim.sale(paymentId)).toMatchObject({ status: 2, capturedAmount: 600 });

    const refunded = await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    expect(refunded).toMatchObject({ status: 'voided', refundedAmount: 600 });
    expect(sim.sale(paymentId)).toMatchObject({ voidedAmount: 600 });
  });

  it('a card Cielo declines fails the charge with the mapped code', async () => {
    const clientId = randomUUID();
    const merchant = await cieloMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, cardNumberEnding('2')));
    expect(charge.status).toBe('failed');
    expect(charge.transactionRequests[0]).toMatchObject({ requestStatus: 'declined', declinedCode: 'generic', providerType: 'CIELO' });
    expect(charge.transactionRequests[0]!.message).toContain('05');
  });

  it('a Pix at Cielo is pending with its QR code until the Notification Post, read back by query, confirms it', async () => {
    const clientId = randomUUID();
    const merchant = await cieloMerchant(clientId);
    const charge = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 2500, paymentMethod: paymentMethod({ paymentType: 'pix', expiresIn: 3600 }) }));
    expect(charge.status).toBe('pending');
    expect(charge.paymentMethod?.qrCodeData).toMatch(/^000201/);
    const paymentId = charge.transactionRequests[0]!.transactionId;

    await sim.payPix(paymentId);
    const notification = notifications.find((n) => n.PaymentId === paymentId)!;
    const reply = await running.client.receiveProviderNotification({
      providerId: providerIdOf(merchant, 'cielo'),
      headers: { 'content-type': 'application/json' },
      query: {},
      rawBody: Buffer.from(JSON.stringify(notification)),
    });
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized' });
  });

  it('a Pix at Cielo names the charge’s own payer (an inline customer with a CPF): no fallback payer is needed', async () => {
    const clientId = randomUUID();
    const merchant = await cieloMerchant(clientId, {});
    // Without a payer Cielo refuses a Pix (104 Customer Identity is required).
    const anonymous = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 2600 }));
    expect(anonymous.status).toBe('failed');
    const charge = await running.client.createCharge(
      pixCharge(clientId, merchant.id, {
        amount: 2600,
        paymentSource: paymentSource({ sourceType: 'customer', customer: { name: 'Ana Souza', document: { type: 'cpf', number: '111.444.777-35', country: 'BR' } } }),
      }),
    );
    expect(charge.status).toBe('pending');
    expect(sim.sale(charge.transactionRequests[0]!.transactionId)?.customer).toEqual({ Name: 'Ana Souza' });
  });
});
