import { randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { cardNumberEnding, eventually } from '@platform/testkit';
import { apiClient, createClient, startTestPlatform } from './platform';
import { WebhookReceiver, type Delivered } from './receiver';

type Json = Record<string, unknown>;
interface Subscription {
  id: string;
  status: string;
  amount: number;
  cyclesBilled: number;
  nextBillingAt: string | null;
}
interface Cycle {
  id: string;
  number: number;
  status: string;
  dueAt: string;
  attempts: Array<{ attempt: number; chargeId: string | null; status: string; declinedCode: string | null }>;
}

const DAY = 86_400_000;
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A platform with a client, a merchant, and a customer who saves cards; `heal` restarts a killed process. */
async function world(prefix: string, options: { heal?: boolean } = {}) {
  const platform = await startTestPlatform(prefix, {}, 'warn', options);
  const api = apiClient(platform.gatewayUrl);
  const client = await createClient(platform.adminUrl, platform.adminToken, 'Subscriptions Store');
  const call = async <T = Json>(method: string, route: string, body?: unknown) => {
    const res = await api<T>(method, route, { auth: client, body });
    return res;
  };
  const merchant = await call<{ id: string }>('POST', '/v1/merchants', {
    mcc: '5999',
    name: 'Coffee Club',
    providers: [{ name: 'sandbox', priority: 1, credentials: { type: 'SANDBOX' } }],
  });
  expect(merchant.status).toBe(201);
  /** A customer with a saved card ending as asked (SANDBOX: 1 authorizes, 02 insufficient funds, 3 expired card). */
  const customerWithCard = async (ending: string) => {
    const n = String(randomInt(10_000_000_000, 99_999_999_999));
    const customer = await call<{ id: string }>('POST', '/v1/customers', {
      name: 'Ana Souza',
      email: `ana.${n}@example.com`,
      phoneNumber: '11988887777',
      document: { type: 'cpf', number: n, country: 'BR' },
    });
    expect(customer.status).toBe(201);
    const token = await call<{ tokenId: string }>('POST', '/v1/tokens', {
      cardHolderName: 'Ana Souza',
      cardNumber: cardNumberEnding(ending),
      cardCvv: '870',
      cardExpirationDate: `12/${new Date().getUTCFullYear() + 5}`,
    });
    const card = await call<{ id: string }>('POST', '/v1/cards', { tokenId: token.body.tokenId });
    expect((await call('POST', `/v1/customers/${customer.body.id}/cards`, { cardId: card.body.id })).status).toBe(204);
    return { customerId: customer.body.id, cardId: card.body.id };
  };
  const subscribe = async (ending: string, overrides: Json = {}) => {
    const { customerId, cardId } = await customerWithCard(ending);
    const res = await call<Subscription>('POST', '/v1/subscriptions', {
      name: 'Coffee club',
      merchantId: merchant.body.id,
      customerId,
      items: [
        { name: 'Beans 1 kg', amount: 4_500, quantity: 2 },
        { name: 'Delivery', amount: 1_000, quantity: 1 },
      ],
      recurrence: { interval: 'monthly' },
      paymentMethod: { type: 'credit', card: { cardId }, installments: 1 },
      ...overrides,
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const advance = async (id: string, to: string) => {
    const res = await call<Subscription>('POST', `/v1/subscriptions/${id}/sandbox/advance`, { to });
    expect(res.status).toBe(200);
    return res.body;
  };
  const cycles = async (id: string) => (await call<{ items: Cycle[] }>('GET', `/v1/subscriptions/${id}/cycles?limit=100&sort=ASC`)).body.items;
  const chargeTotal = async () => (await call<{ meta: { totalItems: number } }>('GET', '/v1/charges?limit=1')).body.meta.totalItems;
  return { platform, client, call, subscribe, advance, cycles, chargeTotal };
}

describe('subscriptions through the gateway', () => {
  let w: Awaited<ReturnType<typeof world>>;

  beforeAll(async () => {
    w = await world('e2esubs');
  }, 120_000);

  afterAll(async () => {
    await w?.platform.stop();
  });

  it('bills the first cycle by its job, then one cycle per month as advance moves the clock, and nothing more for the same time', async () => {
    const before = await w.chargeTotal();
    const subscription = await w.subscribe('1', { recurrence: { interval: 'monthly', startAt: later(1_000) } });
    expect(subscription).toMatchObject({ status: 'created', amount: 10_000, cyclesBilled: 0 });
    const first = await eventually(
      async () => {
        const current = (await w.call<Subscription>('GET', `/v1/subscriptions/${subscription.id}`)).body;
        return current.cyclesBilled === 1 ? current : undefined;
      },
      'the first cycle billed at its time',
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(first.status).toBe('active');
    const to = new Date(Date.parse(first.nextBillingAt!) + 1_000).toISOString();
    expect((await w.advance(subscription.id, to)).cyclesBilled).toBe(2);
    expect((await w.advance(subscription.id, to)).cyclesBilled).toBe(2);
    const all = await w.cycles(subscription.id);
    expect(all.map((c) => [c.number, c.status, c.attempts.length])).toEqual([
      [1, 'authorized', 1],
      [2, 'authorized', 1],
      [3, 'scheduled', 0],
    ]);
    expect((await w.chargeTotal()) - before).toBe(2);
    const cycle = await w.call<Cycle>('GET', `/v1/subscriptions/${subscription.id}/cycles/${all[1]!.id}`);
    expect(cycle.body.attempts[0]).toMatchObject({ attempt: 1, status: 'authorized', chargeId: expect.any(String) });
  });

  it('walks the retry policy on a declining card and ends canceled or unpaid as the settings say', async () => {
    const policy = await w.call('PATCH', '/v1/subscriptions/settings', { retryPolicy: [{ daysAfterLastAttempt: 1 }, { daysAfterLastAttempt: 2 }], cancelAfterAllRetries: true });
    expect(policy.status).toBe(200);
    const canceled = await w.subscribe('02', { recurrence: { interval: 'monthly', startAt: later(DAY) } });
    const ended = await w.advance(canceled.id, later(10 * DAY));
    expect(ended.status).toBe('canceled');
    const [cycle] = await w.cycles(canceled.id);
    expect(cycle!.attempts.map((a) => [a.status, a.declinedCode])).toEqual([
      ['failed', 'insufficient_funds'],
      ['failed', 'insufficient_funds'],
      ['failed', 'insufficient_funds'],
    ]);

    await w.call('PATCH', '/v1/subscriptions/settings', { cancelAfterAllRetries: false });
    const unpaid = await w.subscribe('02', { recurrence: { interval: 'monthly', startAt: later(DAY) } });
    expect((await w.advance(unpaid.id, later(10 * DAY))).status).toBe('unpaid');
    expect((await w.cycles(unpaid.id)).map((c) => [c.number, c.status])).toEqual([
      [1, 'failed'],
      [2, 'scheduled'],
    ]);
  });

  it('does not retry a hard decline', async () => {
    await w.call('PATCH', '/v1/subscriptions/settings', { cancelAfterAllRetries: true });
    const subscription = await w.subscribe('3', { recurrence: { interval: 'monthly', startAt: later(DAY) } });
    expect((await w.advance(subscription.id, later(30 * DAY))).status).toBe('canceled');
    const [cycle] = await w.cycles(subscription.id);
    expect(cycle!.attempts.map((a) => a.declinedCode)).toEqual(['expired_card']);
  });

  it('tells a webhook that a trial started, as subscription.trial_started of object subscription', async () => {
    const receiver = new (class extends WebhookReceiver<Delivered> {
      protected receive(request: Delivered, res: ServerResponse): Delivered {
        res.end();
        return request;
      }
    })();
    await receiver.start();
    try {
      const endpoint = receiver.endpoint();
      const webhook = await w.call('POST', '/v1/webhooks', { event: 'subscription.trial_started', endpoint, version: 1.1, status: true });
      expect(webhook.status).toBe(201);
      const trial = await w.subscribe('1', { trial: { endAt: later(7 * DAY) } });
      const delivered = await eventually(() => receiver.at(endpoint)[0], 'the trial_started delivery', { timeoutMs: 20_000, intervalMs: 100 });
      expect(JSON.parse(delivered.body)).toMatchObject({ object: 'subscription', event: 'subscription.trial_started', data: { id: trial.id, status: 'trialing' } });
    } finally {
      await receiver.stop();
    }
  });

  it('bills a trial at its end, bills nothing while paused, and expires when its cycles are billed', async () => {
    const trial = await w.subscribe('1', { trial: { endAt: later(7 * DAY) } });
    expect(trial.status).toBe('trialing');
    expect((await w.advance(trial.id, later(6 * DAY))).cyclesBilled).toBe(0);
    expect(await w.advance(trial.id, later(7 * DAY + 1_000))).toMatchObject({ status: 'active', cyclesBilled: 1 });

    const paused = await w.subscribe('1', { recurrence: { interval: 'daily', startAt: later(DAY) } });
    expect((await w.call<Subscription>('PATCH', `/v1/subscriptions/${paused.id}/pause`)).body.status).toBe('paused');
    expect((await w.advance(paused.id, later(5 * DAY))).cyclesBilled).toBe(0);
    expect((await w.call<Subscription>('POST', `/v1/subscriptions/${paused.id}/resume`)).body.status).toBe('created');

    const limited = await w.subscribe('1', { recurrence: { interval: 'daily', cycles: 2, startAt: later(DAY) } });
    expect(await w.advance(limited.id, later(10 * DAY))).toMatchObject({ status: 'expired', cyclesBilled: 2 });
  });
});

describe('subscriptions survive a crash of payments while cycles are billed', () => {
  let w: Awaited<ReturnType<typeof world>>;

  beforeAll(async () => {
    w = await world('e2esubscrash', { heal: true });
  }, 120_000);

  afterAll(async () => {
    await w?.platform.stop();
  });

  it('bills each due cycle exactly once when payments is killed and started again', async () => {
    const count = 24;
    const before = await w.chargeTotal();
    const startAt = later(6_000);
    const subscriptions: Subscription[] = [];
    for (let i = 0; i < count; i += 1) subscriptions.push(await w.subscribe('1', { recurrence: { interval: 'monthly', startAt } }));
    // Kill payments as soon as the first cycles are billed, while the others are being billed.
    await eventually(
      async () => {
        const billed = await Promise.all(subscriptions.slice(0, 6).map(async (s) => (await w.call<Subscription>('GET', `/v1/subscriptions/${s.id}`)).body.cyclesBilled));
        return billed.some((n) => n > 0) ? true : undefined;
      },
      'the first cycles billed',
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    await w.platform.processes.payments.kill('SIGKILL');
    const all = await eventually(
      async () => {
        const states = await Promise.all(subscriptions.map((s) => w.call<Subscription>('GET', `/v1/subscriptions/${s.id}`)));
        if (states.some((r) => r.status !== 200)) return undefined;
        return states.every((r) => r.body.cyclesBilled === 1) ? states.map((r) => r.body) : undefined;
      },
      'every first cycle billed after the restart',
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(all.map((s) => s.status)).toEqual(Array(count).fill('active'));
    expect(w.platform.processes.payments.restarts()).toBe(1);
    for (const s of subscriptions) {
      const [first] = await w.cycles(s.id);
      expect(first).toMatchObject({ number: 1, status: 'authorized' });
      expect(first!.attempts).toHaveLength(1);
    }
    // One charge per cycle: none made twice by the crash.
    expect((await w.chargeTotal()) - before).toBe(count);
  }, 180_000);
});
