import { randomUUID } from 'node:crypto';
import { startPagarmeSimulator, type PagarmeHook, type PagarmeSimulator } from '@platform/simulators';
import { cardCharge, failureOf, paymentMethod, pixCharge, providerIdOf, startCharges, type RunningCharges } from '../../support/charges';

/**
 * Charges routed to Pagar.me, through the payments service in-process: its registry makes the Pagar.me adapter
 * over the operator's PAGARME_API_URL, here the simulator's.
 */

const SECRET_KEY = 'sk_test_7a6b5c4d3e2f1a0b9c8d';
const WEBHOOK = { webhookUser: 'platform', webhookPassword: 'hook-password-1' };

let sim: PagarmeSimulator;
let running: RunningCharges;
let saved: string | undefined;
const hooks: PagarmeHook[] = [];

beforeAll(async () => {
  sim = await startPagarmeSimulator({ accounts: [{ secretKey: SECRET_KEY, id: 'acc_loja' }], clock: () => new Date('2026-11-10T15:00:00Z'), notify: (h) => void hooks.push(h) });
  saved = process.env.PAGARME_API_URL;
  process.env.PAGARME_API_URL = sim.apiUrl;
  // A provider's deadline for a loaded machine: these tests wait for answers, none for a timeout.
  running = await startCharges({ PROVIDER_TIMEOUT_MS: '5000' });
});

afterAll(async () => {
  await running.stop();
  await sim.close();
  if (saved === undefined) delete process.env.PAGARME_API_URL;
  else process.env.PAGARME_API_URL = saved;
});

async function pagarmeMerchant(clientId: string, credentials: Record<string, unknown> = {}) {
  return running.client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Pagar.me',
    merchantName: 'Loja Pagar.me',
    merchantUrl: 'https://loja.example.test',
    providers: [
      {
        name: 'pagarme',
        priority: 1,
        credentials: { type: 'PAGARME', secretKey: SECRET_KEY, environment: 'sandbox', ...credentials },
        options: { customer: { name: 'Maria Souza', email: 'maria@example.test', document: '11144477735' } },
      },
    ],
  });
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('Charges at Pagar.me', () => {
  it('pre-authorizes at Pagar.me, captures part, then refunds it', async () => {
    const clientId = randomUUID();
    const merchant = await pagarmeMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, '4000000000000010', { amount: 1000, capture: false }));
    expect(charge).toMatchObject({ status: 'pre_authorized', providerId: providerIdOf(merchant, 'pagarme') });
    const chargeId = charge.transactionRequests[0]!.transactionId;
    expect(sim.charge(chargeId)).toMatchObject({ status: 'pending', amount: 1000, last_transaction: { status: 'authorized_pending_capture' } });

    const captured = await running.client.captureCharge({ clientId, id: charge.id, amount: 600 });
    expect(captured).toMatchObject({ status: 'authorized', capturedAmount: 600 });
    expect(sim.charge(chargeId)).toMatchObject({ status: 'paid', paid_amount: 600 });

    const refunded = await running.client.voidCharge({ clientId, id: charge.id, splitRules: [] });
    expect(refunded).toMatchObject({ status: 'voided', refundedAmount: 600 });
    expect(sim.charge(chargeId)).toMatchObject({ status: 'canceled', canceled_amount: 600 });
  });

  it('the failure card fails the charge with the mapped code', async () => {
    const clientId = randomUUID();
    const merchant = await pagarmeMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, '4000000000000028'));
    expect(charge.status).toBe('failed');
    expect(charge.transactionRequests[0]).toMatchObject({ requestStatus: 'declined', declinedCode: 'generic', providerType: 'PAGARME' });
    expect(charge.transactionRequests[0]!.message).toContain('05');
  });

  it('a card Pagar.me is still processing leaves the charge pending until the hook says the acquirer confirmed it', async () => {
    const clientId = randomUUID();
    const merchant = await pagarmeMerchant(clientId);
    const charge = await running.client.createCharge(cardCharge(clientId, merchant.id, '4000000000000036', { amount: 1800 }));
    expect(charge.status).toBe('pending');
    const chargeId = charge.transactionRequests[0]!.transactionId;
    expect(sim.charge(chargeId)).toMatchObject({ status: 'processing', last_transaction: { status: 'with_error' } });

    await sim.settle(chargeId);
    const hook = hooks.find((h) => h.type === 'charge.paid' && (h.data as { id: string }).id === chargeId)!;
    const reply = await running.client.receiveProviderNotification({ providerId: providerIdOf(merchant, 'pagarme'), headers: {}, query: {}, rawBody: Buffer.from(JSON.stringify(hook)) });
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: 1800 });
  });

  it('a Pix at Pagar.me is pending with its QR code until the hook, read back by query, says it was paid', async () => {
    const clientId = randomUUID();
    const merchant = await pagarmeMerchant(clientId, WEBHOOK);
    const charge = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 2500, paymentMethod: paymentMethod({ paymentType: 'pix', expiresIn: 3600 }) }));
    expect(charge.status).toBe('pending');
    expect(charge.paymentMethod?.qrCodeData).toMatch(/^000201/);
    const chargeId = charge.transactionRequests[0]!.transactionId;

    await sim.settle(chargeId);
    const hook = hooks.find((h) => h.type === 'charge.paid' && (h.data as { id: string }).id === chargeId)!;
    const rawBody = Buffer.from(JSON.stringify(hook));
    const providerId = providerIdOf(merchant, 'pagarme');
    // Without the webhook's Basic credentials, nothing is believed.
    const refused = await failureOf(running.client.receiveProviderNotification({ providerId, headers: { 'content-type': 'application/json' }, query: {}, rawBody }));
    expect(refused.kind).toBe('unauthenticated');
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'pending' });

    const reply = await running.client.receiveProviderNotification({
      providerId,
      headers: { 'content-type': 'application/json', authorization: basic(WEBHOOK.webhookUser, WEBHOOK.webhookPassword) },
      query: {},
      rawBody,
    });
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized' });
  });

  it('a forged hook saying a Pix was paid changes nothing: Pagar.me is asked and says it is pending', async () => {
    const clientId = randomUUID();
    const merchant = await pagarmeMerchant(clientId);
    const charge = await running.client.createCharge(pixCharge(clientId, merchant.id, { amount: 2700 }));
    const chargeId = charge.transactionRequests[0]!.transactionId;
    const forged = { id: 'hook_forged000001', account: { id: 'acc_loja', name: 'Loja' }, type: 'charge.paid', created_at: '2026-11-10T15:00:01Z', data: { id: chargeId, status: 'paid', paid_amount: 2700 } };
    const reply = await running.client.receiveProviderNotification({ providerId: providerIdOf(merchant, 'pagarme'), headers: {}, query: {}, rawBody: Buffer.from(JSON.stringify(forged)) });
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'pending' });
  });
});
