import { randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

/** How long the SANDBOX keeps a card ending 6 waiting: the first attempt is surely in flight when payments dies. */
const PROVIDER_TIMEOUT_MS = 4000;

const customerBody = (n: number) => ({
  name: `Ana ${n}`,
  email: `ana.heal.${n}@example.com`,
  phoneNumber: '+55 11 99999-0000',
  document: { type: 'cpf', number: String(n).padStart(11, '0').slice(-11), country: 'BR' },
  address: { country: 'BR', state: 'SP', city: 'São Paulo', street: 'Av. Paulista', streetNumber: '1000', zipCode: '01310100' },
});

describe('the platform heals: crashed processes are started again without anyone asking', () => {
  let platform: TestPlatform;
  let api: ReturnType<typeof apiClient>;
  let client: Credentials;
  let merchantId: string;
  const received: Array<{ path: string; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.end();
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    platform = await startTestPlatform('e2eheal', { PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS), WEBHOOKS_RETRY_SCHEDULE: Array(30).fill('500ms').join(',') }, 'warn', { heal: true });
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Heal Store');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Loja Heal', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
  }, 180_000);
  afterAll(async () => {
    await platform?.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('starts a SIGKILLed payments again within seconds while the rest keeps answering', async () => {
    const before = platform.processes.payments.pid();
    await platform.processes.payments.kill('SIGKILL');
    const killed = Date.now();
    // The rest of the platform answers meanwhile: customers lives in another process.
    const customers = await api('GET', '/v1/customers', { auth: client });
    expect(customers.status).toBe(200);
    const merchants = await eventually(
      async () => {
        const page = await api<{ items: Array<{ id: string }> }>('GET', '/v1/merchants', { auth: client });
        return page.status === 200 ? page.body : undefined;
      },
      'payments serving again',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(Date.now() - killed).toBeLessThan(20_000);
    expect(merchants.items.map((m) => m.id)).toContain(merchantId);
    expect(platform.processes.payments.pid()).not.toBe(before);
    expect(platform.processes.payments.restarts()).toBe(1);
    await eventually(async () => (platform.healing().some((l) => l.startsWith('payments serving again')) ? true : undefined), 'the restart reported');
    expect(platform.healing()).toEqual(expect.arrayContaining(['payments crashed (SIGKILL); restart in 500 ms', 'payments serving again (restart 1)']));
  }, 60_000);

  it('starts every other service and the gateway again after a SIGKILL, one after the other', async () => {
    const names = (Object.keys(platform.processes) as Array<keyof TestPlatform['processes']>).filter((n) => n !== 'payments');
    expect(names).toEqual(expect.arrayContaining(['gateway', 'settings', 'customers', 'webhooks', 'sessions', 'sellers-and-reviews']));
    for (const name of names) {
      const proc = platform.processes[name];
      const before = proc.pid();
      await proc.kill('SIGKILL');
      await eventually(
        async () => {
          if (proc.restarts() < 1 || proc.pid() === before) return undefined;
          const res = await fetch(`${platform.gatewayUrl}/health`).catch(() => undefined);
          if (res?.status !== 200) return undefined;
          const body = (await res.json()) as { services: Record<string, string> };
          return Object.values(body.services).every((s) => s === 'SERVING') ? body : undefined;
        },
        `${name} serving again`,
        { timeoutMs: 20_000, intervalMs: 200 },
      );
    }
    // Every process came back once, and the client's data is still there through the restarted gateway.
    expect(names.map((n) => [n, platform.processes[n].restarts()])).toEqual(names.map((n) => [n, 1]));
    const merchants = await api<{ items: Array<{ id: string }> }>('GET', '/v1/merchants', { auth: client });
    expect(merchants.body.items.map((m) => m.id)).toContain(merchantId);
  }, 180_000);

  it('answers a retried charge with the same key soon after payments is started again by itself', async () => {
    const db = new Client({ connectionString: platform.databaseUrl('payments') });
    await db.connect();
    try {
      const key = `heal-${randomInt(1e9)}`;
      const body = {
        merchantId,
        amount: 4_200,
        currency: 'BRL',
        paymentMethod: { paymentType: 'credit', installments: 1 },
        paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(6), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
      };
      const charge = () => api<{ id: string; status: string }>('POST', '/v1/charges', { auth: client, body, headers: { 'x-idempotency-key': key } });
      const state = async () =>
        (await db.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE client_id = $1 AND key = $2', [client.clientId, key])).rows[0]?.state;

      const first = charge();
      // An inline card's charge claims its key in its own transaction, held open while the SANDBOX card waits.
      const claimHeld = async () =>
        (
          await db.query(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE '%INSERT INTO idempotency_keys%'`,
          )
        ).rows[0];
      await eventually(claimHeld, 'the first attempt to hold its claim');
      await platform.processes.payments.kill('SIGKILL');
      const killed = Date.now();
      expect((await first).status).toBe(503);

      // The client retries as a client would, with the same key, until it gets an answer other than 503.
      const retried = await eventually(
        async () => {
          const response = await charge();
          return response.status === 503 ? undefined : response;
        },
        'the retry answered',
        { timeoutMs: 40_000, intervalMs: 250 },
      );
      expect(retried.status).toBe(201);
      expect(retried.body.status).toBe('failed');
      // The automatic restart, then the SANDBOX's wait once more: no one-minute in-flight timeout, no 409.
      expect(Date.now() - killed).toBeLessThan(PROVIDER_TIMEOUT_MS + 20_000);
      expect(await state()).toBe('done');
      const replayed = await charge();
      expect(replayed.body.id).toBe(retried.body.id);
      const charges = await db.query('SELECT id FROM charges WHERE client_id = $1 AND merchant_id = $2 AND amount = 4200', [client.clientId, merchantId]);
      expect(charges.rowCount).toBe(1);
    } finally {
      await db.end();
    }
  }, 90_000);

  it('starts a SIGKILLed nats-server again on its port and store; events produced afterwards reach JetStream and a webhook', async () => {
    const nats = platform.nats!;
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${randomUUID()}`;
    const webhook = await api('POST', '/v1/webhooks', { auth: client, body: { event: '*', endpoint, version: 1.1, status: true } });
    expect(webhook.status).toBe(201);

    const restartsBefore = nats.process.restarts();
    await nats.process.kill('SIGKILL');
    await eventually(async () => (nats.process.restarts() === restartsBefore + 1 && nats.process.running() ? true : undefined), 'nats-server started again', {
      timeoutMs: 15_000,
    });
    expect(platform.healing()).toEqual(expect.arrayContaining(['nats crashed (SIGKILL); restart in 500 ms']));

    // A customer created now: its event leaves the outbox only once JetStream has acknowledged it.
    const created = await api<{ id: string }>('POST', '/v1/customers', { auth: client, body: customerBody(randomInt(1e9)) });
    expect(created.status).toBe(201);
    const customersDb = new Client({ connectionString: platform.databaseUrl('customers') });
    await customersDb.connect();
    try {
      await eventually(
        async () => {
          const { rows } = await customersDb.query<{ published: boolean }>(
            `SELECT published_at IS NOT NULL AS published FROM outbox WHERE payload::text LIKE $1`,
            [`%${created.body.id}%`],
          );
          return rows.length > 0 && rows.every((r) => r.published) ? true : undefined;
        },
        "the customer's event published to JetStream",
        { timeoutMs: 30_000, intervalMs: 200 },
      );
    } finally {
      await customersDb.end();
    }

    // A merchant created now: payments publishes, the webhooks consumer picks it up, the receiver gets it.
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'After NATS', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }] },
    });
    expect(merchant.status).toBe(201);
    const path = new URL(endpoint).pathname;
    await eventually(
      async () => (received.some((r) => r.path === path && r.body.includes(merchant.body.id)) ? true : undefined),
      'a webhook delivery for the merchant created after the restart',
      { timeoutMs: 45_000, intervalMs: 200 },
    );
  }, 120_000);
});
