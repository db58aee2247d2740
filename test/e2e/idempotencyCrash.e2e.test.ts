import { randomInt } from 'node:crypto';
import { Client } from 'pg';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform, type Credentials, type TestPlatform } from './platform';

/**
 * How long the SANDBOX keeps a card ending 6 waiting. Long enough that the first attempt is surely still in
 * flight when payments is killed, short next to the one-minute in-flight timeout the retry no longer waits for.
 */
const PROVIDER_TIMEOUT_MS = 8000;

describe('a charge in flight when payments is killed', () => {
  let platform: TestPlatform;
  let db: Client;
  let client: Credentials;
  let merchantId: string;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    platform = await startTestPlatform('e2eidemcrash', { PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) });
    api = apiClient(platform.gatewayUrl);
    client = await createClient(platform.adminUrl, platform.adminToken, 'Crash Store');
    const merchant = await api<{ id: string }>('POST', '/v1/merchants', {
      auth: client,
      body: { mcc: '5999', name: 'Loja Crash', providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX', apiKey: 'provider-secret' } }] },
    });
    expect(merchant.status).toBe(201);
    merchantId = merchant.body.id;
    db = new Client({ connectionString: platform.databaseUrl('payments') });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await platform?.stop();
  });

  const record = async (key: string) =>
    (
      await db.query<{ state: string; owner: string | null }>(
        'SELECT state, owner_instance::text AS owner FROM idempotency_keys WHERE client_id = $1 AND key = $2',
        [client.clientId, key],
      )
    ).rows[0];

  it('answers the retry with the same key as soon as payments is back, with exactly one charge', async () => {
    const key = `crash-${randomInt(1e9)}`;
    const body = {
      merchantId,
      amount: 4_200,
      currency: 'BRL',
      paymentMethod: { paymentType: 'credit', installments: 1 },
      paymentSource: { sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(6), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } },
    };
    const charge = () => api<{ id: string; status: string }>('POST', '/v1/charges', { auth: client, body, headers: { 'x-idempotency-key': key } });

    const first = charge();
    const claimed = await eventually(async () => {
      const row = await record(key);
      return row?.state === 'in_flight' ? row : undefined;
    }, 'the first attempt to claim its key');
    expect(claimed.owner).not.toBeNull();
    await platform.processes.payments.kill('SIGKILL');
    expect((await first).status).toBe(503);
    // Nothing completed the record: the attempt died in flight.
    expect(await record(key)).toMatchObject({ state: 'in_flight', owner: claimed.owner });

    await platform.restart('payments');
    const restarted = Date.now();
    // The retry after the restart is served: no 409 while a one-minute timeout runs out. The gateway may answer 503
    // for the few seconds its connection to payments waits out its reconnect backoff; a client retries those.
    let retried = await charge();
    const statuses = [retried.status];
    while (retried.status === 503 && Date.now() - restarted < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      retried = await charge();
      statuses.push(retried.status);
    }
    const answeredInMs = Date.now() - restarted;
    expect(statuses.filter((status) => status !== 503)).toEqual([201]);
    expect(retried.status).toBe(201);
    expect(retried.body.status).toBe('failed');
    // The retry itself waits out the SANDBOX's timeout once more; nothing else.
    expect(answeredInMs).toBeLessThan(PROVIDER_TIMEOUT_MS + 20_000);
    const done = await record(key);
    expect(done?.state).toBe('done');
    expect(done?.owner).not.toBe(claimed.owner);

    const replayed = await charge();
    expect(replayed.status).toBe(201);
    expect(replayed.body.id).toBe(retried.body.id);
    const charges = await db.query<{ id: string }>('SELECT id FROM charges WHERE client_id = $1', [client.clientId]);
    expect(charges.rows.map((r) => r.id)).toEqual([retried.body.id]);
  }, 120_000);
});
