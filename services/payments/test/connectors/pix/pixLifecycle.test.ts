import { randomUUID } from 'node:crypto';
import { startPixSimulator, testTls, type RunningPixSimulator } from '@platform/simulators';
import { ManualClock } from '@platform/testkit';
import { SYNC_PROVIDER_STATUSES } from '../../../src/modules/charges/app/chargeJobs';
import { createProviderRegistry } from '../../../src/modules/connectors/app/registry';
import { forgetTrustedAuthorities } from '../../../src/modules/connectors/kit/http';
import { pixCharge } from '../../support/charges';
import { runJob, startWithProviders, type RunningWithProviders } from '../../support/fakeProvider';

/**
 * A Pix at Efí through the payments service with the real connector, against the API Pix simulator over mutual TLS:
 * the webhook registered when the entry is saved, a payment told by the bank's notification, and one whose
 * notification is lost, settled by the status sync once the service's clock has moved.
 */
const tls = testTls();
const KEY = 'loja@example.com';
const ACCOUNT = { clientId: 'Client_Id_lifecycle_01', clientSecret: 'Client_Secret_lifecycle_01', pixKeys: [KEY] };
const PUBLIC_URL = 'https://pay.example.test';

const clock = new ManualClock(new Date('2026-06-01T15:00:00Z'));
let simulator: RunningPixSimulator;
let running: RunningWithProviders;
let previousCa: string | undefined;

beforeAll(async () => {
  previousCa = process.env.NODE_EXTRA_CA_CERTS;
  process.env.NODE_EXTRA_CA_CERTS = tls.caFile;
  forgetTrustedAuthorities();
  simulator = await startPixSimulator({ clock: () => clock.now(), accounts: [ACCOUNT], profile: 'EFI', webhookDelayMs: 0 });
  const registry = createProviderRegistry({ publicUrl: PUBLIC_URL, env: { PIX_EFI_API_URL: simulator.url, PIX_EFI_TOKEN_URL: simulator.tokenUrl } });
  running = await startWithProviders(registry, clock);
});

afterAll(async () => {
  await running?.stop();
  await simulator?.close();
  if (previousCa === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
  else process.env.NODE_EXTRA_CA_CERTS = previousCa;
  forgetTrustedAuthorities();
});

async function efiMerchant(clientId: string): Promise<{ merchantId: string; providerId: string }> {
  const merchant = await running.client.createMerchant({
    clientId,
    mcc: '5999',
    name: 'Loja Pix',
    merchantName: 'LOJA PIX',
    merchantUrl: 'https://loja.example.test',
    providers: [
      {
        name: 'Efí',
        priority: 1,
        credentials: { type: 'PIX_EFI', clientId: ACCOUNT.clientId, clientSecret: ACCOUNT.clientSecret, certificate: tls.clientBundle, pixKey: KEY, environment: 'sandbox' },
        options: {},
      },
    ],
  });
  return { merchantId: merchant.id, providerId: merchant.providers[0]!.id };
}

const txidOf = (charge: { transactionRequests: Array<{ requestType: string; requestStatus: string; transactionId: string }> }) =>
  charge.transactionRequests.find((r) => r.requestType === 'authorization' && r.requestStatus === 'success')!.transactionId;

describe('a Pix at Efí, end to end in the payments service', () => {
  it('registers the webhook of the entry at the platform when the entry is saved', async () => {
    const { providerId } = await efiMerchant(randomUUID());
    const registration = simulator.exchanges.filter((e) => e.method === 'PUT' && e.route === '/webhook/{chave}').at(-1);
    expect(registration?.status).toBe(200);
    expect(String((registration?.requestBody as { webhookUrl?: string }).webhookUrl)).toMatch(new RegExp(`^${PUBLIC_URL}/v1/provider-notifications/${providerId}`));
  });

  it('is paid by the bank’s notification, which the platform reads back before it believes it', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await efiMerchant(clientId);
    const charge = await running.client.createCharge(pixCharge(clientId, merchantId, { amount: 2500 }));
    expect(charge.status).toBe('pending');
    expect(charge.paymentMethod?.qrCodeData).toMatch(/^000201/);
    const txid = txidOf(charge);
    expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);

    await simulator.pay(txid);
    const delivery = simulator.deliveries.filter((d) => d.body.pix.some((p) => p.txid === txid)).at(-1)!;
    const rawBody = Buffer.from(JSON.stringify(delivery.body));
    const reply = await running.client.receiveProviderNotification({ providerId, headers: { 'content-type': 'application/json' }, query: {}, rawBody });
    expect(reply.status).toBe(200);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: 2500 });

    // The same notification again changes nothing.
    const paid = await running.client.getCharge({ clientId, id: charge.id });
    await running.client.receiveProviderNotification({ providerId, headers: { 'content-type': 'application/json' }, query: {}, rawBody });
    expect((await running.client.getCharge({ clientId, id: charge.id })).updatedAt).toEqual(paid.updatedAt);
  });

  it('believes no status a forged notification states: an unpaid charge named in one stays pending', async () => {
    const clientId = randomUUID();
    const { merchantId, providerId } = await efiMerchant(clientId);
    const charge = await running.client.createCharge(pixCharge(clientId, merchantId, { amount: 2600 }));
    const txid = txidOf(charge);
    const forged = { pix: [{ endToEndId: 'E00000000202606011500abcdefghijk', txid, valor: '26.00', horario: clock.now().toISOString() }] };
    await running.client.receiveProviderNotification({ providerId, headers: {}, query: {}, rawBody: Buffer.from(JSON.stringify(forged)) });
    expect((await running.client.getCharge({ clientId, id: charge.id })).status).toBe('pending');
  });

  it('is settled by the status sync when its notification is lost', async () => {
    const clientId = randomUUID();
    const { merchantId } = await efiMerchant(clientId);
    const charge = await running.client.createCharge(pixCharge(clientId, merchantId, { amount: 2700 }));
    // Paid at the bank; the webhook goes to PUBLIC_URL, which nothing serves here: lost.
    await simulator.pay(txidOf(charge));
    await runJob(running.pool, SYNC_PROVIDER_STATUSES);
    expect((await running.client.getCharge({ clientId, id: charge.id })).status).toBe('pending');

    clock.advance(2 * 60_000);
    await runJob(running.pool, SYNC_PROVIDER_STATUSES);
    expect(await running.client.getCharge({ clientId, id: charge.id })).toMatchObject({ status: 'authorized', capturedAmount: 2700 });
  });
});
