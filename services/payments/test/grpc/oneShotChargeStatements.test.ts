import { randomBytes, randomUUID } from 'node:crypto';
import { createLogger, OUTBOX_CHANNEL, setOutboxNotifyInterval, type Pool } from '@platform/kit';
import type { PoolClient, QueryConfig } from 'pg';
import { createCharge } from '../../src/modules/charges/app/createCharge';
import { manualTimer, OutcomeRecorder } from '../../src/modules/charges/app/outcomeRecorder';
import { DEFAULT_SUCCESS_RATE_SETTINGS } from '../../src/modules/charges/domain/successRate';
import type { ChargeDeps } from '../../src/modules/charges/app/deps';
import { createMerchantsPort } from '../../src/modules/merchants/app/merchantsPort';
import { MerchantCache } from '../../src/modules/merchants/app/merchantCache';
import { createCardSource, createVaultLookup } from '../../src/modules/vault/app/cardSource';
import { createProviderRegistry, fromAdapters } from '../../src/modules/connectors/app/registry';
import { SandboxProvider } from '../../src/modules/connectors/sandbox/sandbox';
import type { AuthorizeRequest, ProviderCall } from '../../src/modules/connectors/domain/types';
import { createCardStore } from '../../src/modules/vault/store/cardStore';
import { createChargeStore } from '../../src/modules/charges/store/chargeStore';
import { createMerchantStore } from '../../src/modules/merchants/store/merchantStore';
import { createTokenStore } from '../../src/modules/vault/store/tokenStore';
import { vaultFromConfig } from '../../src/modules/vault/crypto/keyRing';
import { cardCharge, cardNumberEnding, createMerchant, PROVIDER_TIMEOUT_MS, PUBLIC_URL, startCharges, type RunningCharges } from '../support/charges';
import { FakeCustomers } from '../support/customers';
import { FakeSellers } from '../support/sellers';

/**
 * What a one-shot card charge costs the payments database: the pool the use case is given counts its statements
 * and transactions (a statement outside BEGIN..COMMIT is a transaction of its own).
 */
interface Counted {
  statements: string[];
  transactions: number;
}

function countingPool(pool: Pool): { pool: Pool; counted: Counted; reset(): void } {
  const counted: Counted = { statements: [], transactions: 0 };
  const textOf = (q: string | QueryConfig) => (typeof q === 'string' ? q : q.text).trim().replace(/\s+/g, ' ');
  const wrapClient = (client: PoolClient): PoolClient => {
    let inTransaction = false;
    return new Proxy(client, {
      get(target, property) {
        if (property === 'query') {
          return (q: string | QueryConfig, values?: unknown[]) => {
            const text = textOf(q);
            counted.statements.push(text);
            if (/^BEGIN/i.test(text)) {
              inTransaction = true;
              counted.transactions += 1;
            } else if (/^(COMMIT|ROLLBACK)/i.test(text)) {
              inTransaction = false;
            } else if (!inTransaction) {
              counted.transactions += 1;
            }
            return (target.query as (q: unknown, v?: unknown) => Promise<unknown>)(q, values);
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  const proxy = new Proxy(pool, {
    get(target, property) {
      if (property === 'query') {
        return (q: string | QueryConfig, values?: unknown[]) => {
          counted.statements.push(textOf(q));
          counted.transactions += 1;
          return (target.query as (q: unknown, v?: unknown) => Promise<unknown>)(q, values);
        };
      }
      if (property === 'connect') return async () => wrapClient(await target.connect());
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    pool: proxy,
    counted,
    reset: () => {
      counted.statements.length = 0;
      counted.transactions = 0;
    },
  };
}

const encryptionKey = randomBytes(32);
const fingerprintKey = randomBytes(32);
let running: RunningCharges;
let deps: ChargeDeps;
let counting: ReturnType<typeof countingPool>;

beforeAll(async () => {
  running = await startCharges({ CARD_ENCRYPTION_KEY: encryptionKey.toString('hex'), CARD_FINGERPRINT_KEY: fingerprintKey.toString('hex') });
  const vault = vaultFromConfig({ CARD_ENCRYPTION_KEY: encryptionKey, CARD_FINGERPRINT_KEY: fingerprintKey });
  const stores = { merchants: createMerchantStore(), cards: createCardStore(), tokens: createTokenStore(), charges: createChargeStore() };
  counting = countingPool(running.pool);
  deps = {
    pool: counting.pool,
    log: createLogger({ name: 'payments-test', level: 'silent' }),
    clock: running.clock,
    config: { PROVIDER_TIMEOUT_MS, PUBLIC_URL },
    store: stores.charges,
    outcomes: running.outcomes,
    providers: createProviderRegistry({ publicUrl: PUBLIC_URL }),
    cards: createCardSource({ vault, clock: running.clock, cards: stores.cards, tokens: stores.tokens }),
    merchants: createMerchantsPort({ vault, merchants: stores.merchants, cache: new MerchantCache({ ttlMs: 300_000 }) }),
    customers: new FakeCustomers({ strict: false }),
    sellers: new FakeSellers(),
    vault: createVaultLookup(stores),
  };
});

afterAll(async () => {
  await running.stop();
});

async function rowsOf(clientId: string) {
  // The outcomes are written by the recorder's flush, apart from the charges.
  await running.outcomes.flush();
  const charges = await running.pool.query<{ id: string; status: string; declined_code: string | null }>(
    'SELECT id, status, declined_code FROM charges WHERE client_id = $1 ORDER BY seq',
    [clientId],
  );
  const requests = await running.pool.query<{ charge_id: string; request_status: string }>(
    'SELECT charge_id, request_status FROM transaction_requests WHERE client_id = $1 ORDER BY seq',
    [clientId],
  );
  const events = await running.pool.query<{ subject: string }>(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1 AND subject LIKE 'payments.charge.%' ORDER BY seq`, [
    clientId,
  ]);
  const outcomes = await running.pool.query<{ recent: string }>('SELECT recent FROM provider_outcomes WHERE client_id = $1', [clientId]);
  const attempts = await running.pool.query<{ charge_id: string; outcome: string; declined_code: string | null }>(
    'SELECT charge_id, outcome, declined_code FROM card_authorization_attempts WHERE client_id = $1',
    [clientId],
  );
  const keys = await running.pool.query<{ key: string; state: string }>('SELECT key, state FROM idempotency_keys WHERE client_id = $1', [clientId]);
  return {
    charges: charges.rows,
    requests: requests.rows,
    events: events.rows.map((r) => r.subject),
    outcomes: outcomes.rows.map((r) => r.recent),
    attempts: attempts.rows,
    keys: keys.rows,
  };
}

const figures = () => ({ transactions: counting.counted.transactions, statements: counting.counted.statements.length });

describe('a one-shot SANDBOX card charge', () => {
  it('costs the payments database one transaction of four statements with an idempotency key, its rows, answer and event all written', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    // The first charge of a merchant reads its configuration; the figure is for the ones after it.
    const first = await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('1')), randomUUID());
    counting.reset();

    const key = randomUUID();
    const request = cardCharge(clientId, merchant.id, cardNumberEnding('1'));
    const charge = await createCharge(deps, request, key);

    expect(charge.status).toBe('authorized');
    // BEGIN, the key's claim, the charge with its requests, answer and event, COMMIT; its outcomes are the recorder's.
    expect(figures()).toEqual({ transactions: 1, statements: 4 });
    const rows = await rowsOf(clientId);
    expect(rows.charges).toEqual([
      { id: first.id, status: 'authorized', declined_code: null },
      { id: charge.id, status: 'authorized', declined_code: null },
    ]);
    expect(rows.requests).toEqual([
      { charge_id: first.id, request_status: 'success' },
      { charge_id: charge.id, request_status: 'success' },
    ]);
    expect(rows.events).toEqual(['payments.charge.authorized', 'payments.charge.authorized']);
    expect(rows.outcomes).toEqual(['aa']);
    expect(rows.keys).toEqual(expect.arrayContaining([{ key, state: 'done' }]));

    // The same key again is the stored answer, and nothing more is written.
    counting.reset();
    const replay = await createCharge(deps, request, key);
    expect(replay).toEqual(charge);
    expect((await rowsOf(clientId)).charges).toHaveLength(2);
  });

  it('costs one statement without an idempotency key: the charge, its requests and its event', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    counting.reset();

    const charge = await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('1')));

    expect(charge.status).toBe('authorized');
    // The charge with its requests and its event, a transaction of its own.
    expect(figures()).toEqual({ transactions: 1, statements: 1 });
    const rows = await rowsOf(clientId);
    expect(rows.charges.at(-1)).toEqual({ id: charge.id, status: 'authorized', declined_code: null });
    expect(rows.requests.at(-1)).toEqual({ charge_id: charge.id, request_status: 'success' });
    expect(rows.events).toEqual(['payments.charge.authorized', 'payments.charge.authorized']);
  });

  it("wakes every replica's relay from the charge's one statement, at its commit, when the interval asks for a notification", async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    const listener = await running.pool.connect();
    try {
      await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
      const heard = new Promise<string>((resolve) => listener.once('notification', (n) => resolve(n.channel)));
      setOutboxNotifyInterval(0);
      counting.reset();
      await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('1')));
      expect(figures()).toEqual({ transactions: 1, statements: 1 });
      expect(await heard).toBe(OUTBOX_CHANNEL);
    } finally {
      setOutboxNotifyInterval(100);
      await listener.query(`UNLISTEN ${OUTBOX_CHANNEL}`);
      listener.release();
    }
  });

  it('writes no provider outcome in the charge\'s transaction: the recorder appends them at its flush, for charges of many merchants in one statement', async () => {
    const clientId = randomUUID();
    const merchants = [await createMerchant(running.client, clientId), await createMerchant(running.client, clientId)];
    for (const merchant of merchants) await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    await running.outcomes.flush();
    counting.reset();

    const flushed = countingPool(running.pool);
    const recorder = new OutcomeRecorder({ db: flushed.pool, log: deps.log, settings: DEFAULT_SUCCESS_RATE_SETTINGS, flushMs: 200, timer: manualTimer });
    const recording: ChargeDeps = { ...deps, outcomes: recorder };
    for (const merchant of merchants) {
      await createCharge(recording, cardCharge(clientId, merchant.id, cardNumberEnding('1')), randomUUID());
      await createCharge(recording, cardCharge(clientId, merchant.id, cardNumberEnding('5')));
    }

    expect(counting.counted.statements.filter((s) => s.includes('provider_outcomes'))).toEqual([]);
    expect(figures()).toEqual({ transactions: 4, statements: 10 });
    const recent = async () =>
      (await running.pool.query<{ recent: string }>('SELECT recent FROM provider_outcomes WHERE client_id = $1 ORDER BY merchant_id', [clientId])).rows.map((r) => r.recent);
    expect(await recent()).toEqual(['a', 'a']);
    expect(recorder.pendingMarks()).toBe(4);

    await recorder.flush();
    // Both merchants' outcomes: one statement, a transaction of its own.
    expect(flushed.counted).toEqual({ transactions: 1, statements: [expect.stringContaining('INSERT INTO provider_outcomes')] });
    expect(recorder.pendingMarks()).toBe(0);
    expect(await recent()).toEqual(['aad', 'aad']);
  });

  it('writes a decline and its card attempt in the same one transaction, its outcome once the recorder flushes', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('1')));
    counting.reset();

    const charge = await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('5')), randomUUID());

    expect(charge).toMatchObject({ status: 'failed', declinedCode: 'restricted_card' });
    expect(figures()).toEqual({ transactions: 1, statements: 4 });
    const rows = await rowsOf(clientId);
    expect(rows.charges.at(-1)).toEqual({ id: charge.id, status: 'failed', declined_code: 'restricted_card' });
    expect(rows.requests.at(-1)).toEqual({ charge_id: charge.id, request_status: 'declined' });
    expect(rows.attempts).toEqual([{ charge_id: charge.id, outcome: 'declined', declined_code: 'restricted_card' }]);
    expect(rows.events.at(-1)).toBe('payments.charge.failed');
    expect(rows.outcomes).toEqual(['ad']);
  });

  it('records a provider that never answered as today: a failed charge, a failed request, a failed card attempt', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);

    const charge = await createCharge(deps, cardCharge(clientId, merchant.id, cardNumberEnding('6')), randomUUID());

    expect(charge.status).toBe('failed');
    const rows = await rowsOf(clientId);
    expect(rows.charges).toEqual([{ id: charge.id, status: 'failed', declined_code: charge.declinedCode }]);
    expect(rows.requests).toEqual([{ charge_id: charge.id, request_status: 'failed' }]);
    expect(rows.attempts).toEqual([expect.objectContaining({ charge_id: charge.id, outcome: 'failed' })]);
    expect(rows.events).toEqual(['payments.charge.failed']);
    expect(rows.outcomes).toEqual(['t']);
  });

  it('still claims the key in a transaction of its own before a provider that answers over the network is asked', async () => {
    const clientId = randomUUID();
    const merchant = await createMerchant(running.client, clientId);
    const key = randomUUID();
    const seenByProvider: string[] = [];
    // The same answers as the SANDBOX, from an adapter that is not the in-process one: a network provider's path.
    class NetworkProvider extends SandboxProvider {
      override async authorize(request: AuthorizeRequest, call: ProviderCall) {
        const { rows } = await running.pool.query<{ state: string }>('SELECT state FROM idempotency_keys WHERE client_id = $1 AND key = $2', [clientId, key]);
        seenByProvider.push(...rows.map((r) => r.state));
        return super.authorize(request, call);
      }
    }
    const networkDeps: ChargeDeps = { ...deps, providers: fromAdapters([new NetworkProvider({ publicUrl: PUBLIC_URL })]) };

    const charge = await createCharge(networkDeps, cardCharge(clientId, merchant.id, cardNumberEnding('1')), key);

    expect(charge.status).toBe('authorized');
    expect(seenByProvider).toEqual(['in_flight']);
    expect((await rowsOf(clientId)).keys).toEqual([{ key, state: 'done' }]);
  });
});
