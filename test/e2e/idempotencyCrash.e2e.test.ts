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

  const cardSource = () => ({ sourceType: 'card', card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(6), cardCvv: '870', cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}` } });
  /** A token of the same card: it is used up (committed) before the provider is asked, so the key's claim is committed first too. */
  const tokenSource = async () => {
    const token = await api<{ tokenId: string }>('POST', '/v1/tokens', { auth: client, body: cardSource().card });
    expect(token.status).toBe(201);
    return { sourceType: 'token', tokenId: token.body.tokenId };
  };
  /** The payments backend that holds the key's claim in a transaction still open while its SANDBOX card waits. */
  const openClaim = async () =>
    (
      await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE '%INSERT INTO idempotency_keys%'`,
      )
    ).rows[0];

  /**
   * The first attempt dies in flight with payments; the retry with the same key after the restart is served (no 409
   * while a one-minute timeout runs out), waits out the SANDBOX's timeout once more, and there is exactly one charge.
   * `claimed` waits until the attempt is in flight and answers the key's record as the kill should leave it.
   */
  async function crashAndRetry(paymentSource: Record<string, unknown>, claimed: (key: string) => Promise<{ state: string; owner: string | null } | undefined>) {
    const key = `crash-${randomInt(1e9)}`;
    const body = { merchantId, amount: 4_200, currency: 'BRL', paymentMethod: { paymentType: 'credit', installments: 1 }, paymentSource };
    const charge = () => api<{ id: string; status: string }>('POST', '/v1/charges', { auth: client, body, headers: { 'x-idempotency-key': key } });

    const first = charge();
    const left = await claimed(key);
    await platform.processes.payments.kill('SIGKILL');
    expect((await first).status).toBe(503);
    // Nothing completed the record: the attempt died in flight.
    expect(await record(key)).toEqual(left);

    await platform.restart('payments');
    const restarted = Date.now();
    // The gateway may answer 503 for the few seconds its connection to payments waits out its reconnect backoff; a
    // client retries those.
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
    if (left) expect(done?.owner).not.toBe(left.owner);

    const replayed = await charge();
    expect(replayed.status).toBe(201);
    expect(replayed.body.id).toBe(retried.body.id);
    const charges = await db.query<{ id: string }>('SELECT id FROM charges WHERE client_id = $1 AND id = $2', [client.clientId, retried.body.id]);
    expect(charges.rows).toHaveLength(1);
    return retried.body.id;
  }

  it('a committed claim (a token is used up first): answers the retry as soon as payments is back, with exactly one charge', async () => {
    await crashAndRetry(await tokenSource(), async (key) => {
      const claimed = await eventually(async () => {
        const row = await record(key);
        return row?.state === 'in_flight' ? row : undefined;
      }, 'the first attempt to claim its key');
      expect(claimed.owner).not.toBeNull();
      return claimed;
    });
  }, 120_000);

  it('a claim in the charge\'s own transaction (an inline card): the kill rolls it back, and the retry charges once', async () => {
    await crashAndRetry(cardSource(), async (key) => {
      await eventually(openClaim, 'the first attempt to hold its claim in its open transaction');
      // Seen by no one before its commit.
      expect(await record(key)).toBeUndefined();
      return undefined;
    });
  }, 120_000);
});
