import { randomUUID } from 'node:crypto';
import { payments } from '@platform/contracts';
import { eventually } from '@platform/testkit';
import { cardNumberEnding, chargeCount, createMerchant, expiration, failureOf, startCharges, type RunningCharges } from '../support/charges';

let running: RunningCharges;

/** 31 January 2027, noon UTC: ahead of the database's clock, so the cycles' jobs wait and `advance` drives billing. */
const START = new Date('2027-01-31T12:00:00.000Z');

beforeAll(async () => {
  running = await startCharges();
  running.clock.set(START);
});

afterAll(async () => {
  await running.stop();
});

beforeEach(() => {
  running.clock.set(START);
});

interface Setup {
  clientId: string;
  merchantId: string;
  customerId: string;
  cardId: string;
}

/** A client with a merchant and a customer whose saved card ends as asked (SANDBOX: 1 authorizes, 02 insufficient funds, 3 expired card). */
async function setup(ending = '1'): Promise<Setup> {
  const clientId = randomUUID();
  const merchant = await createMerchant(running.client, clientId, [{ name: 'sandbox', priority: 1 }]);
  const customerId = randomUUID();
  const { tokenId } = await running.client.createToken({
    clientId,
    card: { cardHolderName: 'Ana Souza', cardNumber: cardNumberEnding(ending), cardCvv: '870', cardExpirationDate: expiration() },
  });
  const card = await running.client.createCard({ clientId, tokenId, merchantId: merchant.id, cvvCheck: false });
  await running.client.assignCardToCustomer({ clientId, cardId: card.id, customerId });
  return { clientId, merchantId: merchant.id, customerId, cardId: card.id };
}

function create(s: Setup, overrides: Partial<payments.CreateSubscriptionRequest> = {}) {
  return running.client.createSubscription({
    clientId: s.clientId,
    merchantId: s.merchantId,
    customerId: s.customerId,
    name: 'Coffee club',
    items: [
      { name: 'Beans 1 kg', amount: 4_500, quantity: 2 },
      { name: 'Delivery', amount: 1_000, quantity: 1 },
    ],
    recurrence: { interval: 'monthly' },
    paymentMethod: { type: 'credit', cardId: s.cardId, installments: 1 },
    splitRules: [],
    currency: 'BRL',
    ...overrides,
  });
}

const advance = (s: Setup, id: string, to: string) => running.client.advanceSubscription({ clientId: s.clientId, id, to: new Date(to) });
const cycles = async (s: Setup, id: string) => (await running.client.listSubscriptionCycles({ clientId: s.clientId, subscriptionId: id, page: { page: 1, limit: 100, sort: 'ASC' } })).items;
const summary = (items: payments.SubscriptionCycle[]) => items.map((c) => [c.number, c.status, c.dueAt?.toISOString(), c.attempts.length]);

describe('subscriptions: billing by cycle', () => {
  it('bills the first cycle, then one per month as advance moves the clock; advancing twice to the same time bills nothing more', async () => {
    const s = await setup();
    const created = await create(s);
    expect(created).toMatchObject({ status: 'created', amount: 10_000, cyclesBilled: 0, nextBillingAt: START });
    expect(summary(await cycles(s, created.id))).toEqual([[1, 'scheduled', START.toISOString(), 0]]);

    const first = await advance(s, created.id, '2027-01-31T12:00:00.000Z');
    expect(first).toMatchObject({ status: 'active', cyclesBilled: 1, nextBillingAt: new Date('2027-02-28T12:00:00.000Z') });
    expect(await chargeCount(running.pool, s.clientId)).toBe(1);
    await advance(s, created.id, '2027-01-31T12:00:00.000Z');
    expect(await chargeCount(running.pool, s.clientId)).toBe(1);

    // The anchor's day of month, clamped to each month's length.
    const later = await advance(s, created.id, '2027-04-30T12:00:00.000Z');
    expect(later.cyclesBilled).toBe(4);
    expect(summary(await cycles(s, created.id))).toEqual([
      [1, 'authorized', '2027-01-31T12:00:00.000Z', 1],
      [2, 'authorized', '2027-02-28T12:00:00.000Z', 1],
      [3, 'authorized', '2027-03-31T12:00:00.000Z', 1],
      [4, 'authorized', '2027-04-30T12:00:00.000Z', 1],
      [5, 'scheduled', '2027-05-31T12:00:00.000Z', 0],
    ]);
    expect(await chargeCount(running.pool, s.clientId)).toBe(4);
    await advance(s, created.id, '2027-04-30T12:00:00.000Z');
    expect(await chargeCount(running.pool, s.clientId)).toBe(4);
    // Each cycle's charge: the items' total on the saved card, with the cycle's id as its idempotency key.
    const all = (await cycles(s, created.id)).filter((c) => c.status === 'authorized');
    const charge = await running.client.getCharge({ clientId: s.clientId, id: all[0]!.attempts[0]!.chargeId });
    expect(charge).toMatchObject({ amount: 10_000, status: 'authorized', customerId: s.customerId, paymentSource: { cardId: s.cardId } });
    const { rows } = await running.pool.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE client_id = $1 ORDER BY created_at', [s.clientId]);
    expect(rows.map((r) => r.key)).toEqual(all.map((c) => c.id));
  });

  it('walks the retry policy on a declining card and ends canceled when the settings say so', async () => {
    const s = await setup('02');
    running.subscriptionSettings.byClient.set(s.clientId, { retryDays: [1, 3, 7], cancelAfterAllRetries: true, statementDescriptor: '' });
    const created = await create(s);
    const failed = await advance(s, created.id, '2027-01-31T12:00:00.000Z');
    expect(failed.status).toBe('unpaid');
    const [retrying] = await cycles(s, created.id);
    expect(retrying).toMatchObject({ status: 'retrying', nextAttemptAt: new Date('2027-02-01T12:00:00.000Z'), retryDays: [1, 3, 7], cancelAfterAllRetries: true });
    expect(retrying!.attempts.map((a) => [a.status, a.declinedCode])).toEqual([['failed', 'insufficient_funds']]);
    const ended = await advance(s, created.id, '2027-03-01T00:00:00.000Z');
    expect(ended).toMatchObject({ status: 'canceled', cyclesBilled: 1 });
    const [done, ...rest] = await cycles(s, created.id);
    expect(rest).toEqual([]);
    expect(done!.status).toBe('failed');
    expect(done!.attempts.map((a) => a.attemptedAt?.toISOString())).toEqual([
      '2027-01-31T12:00:00.000Z',
      '2027-02-01T12:00:00.000Z',
      '2027-02-04T12:00:00.000Z',
      '2027-02-11T12:00:00.000Z',
    ]);
    expect(await chargeCount(running.pool, s.clientId)).toBe(4);
  });

  it('stays unpaid after every retry failed when the settings keep it, and still bills the next cycle', async () => {
    const s = await setup('02');
    running.subscriptionSettings.byClient.set(s.clientId, { retryDays: [2], cancelAfterAllRetries: false, statementDescriptor: 'COFFEE CLUB' });
    const created = await create(s);
    const after = await advance(s, created.id, '2027-02-28T12:00:00.000Z');
    expect(after.status).toBe('unpaid');
    expect(summary(await cycles(s, created.id))).toEqual([
      [1, 'failed', '2027-01-31T12:00:00.000Z', 2],
      [2, 'retrying', '2027-02-28T12:00:00.000Z', 1],
    ]);
    const charges = await running.client.listCharges(payments.ListChargesRequest.fromPartial({ clientId: s.clientId, page: { page: 1, limit: 10, sort: 'ASC' } }));
    expect(charges.items.map((c) => c.statementDescriptor)).toEqual(['COFFEE CLUB', 'COFFEE CLUB', 'COFFEE CLUB']);
  });

  it('does not retry a hard decline', async () => {
    const s = await setup('3');
    const created = await create(s);
    const ended = await advance(s, created.id, '2027-03-01T00:00:00.000Z');
    expect(ended.status).toBe('canceled');
    const [cycle] = await cycles(s, created.id);
    expect(cycle!.attempts.map((a) => [a.status, a.declinedCode])).toEqual([['failed', 'expired_card']]);
    expect(cycle!.nextAttemptAt).toBeUndefined();
  });

  it('bills at the end of a trial', async () => {
    const s = await setup();
    const created = await create(s, { trialEndAt: new Date('2027-02-07T12:00:00.000Z') });
    expect(created).toMatchObject({ status: 'trialing', nextBillingAt: new Date('2027-02-07T12:00:00.000Z') });
    expect((await advance(s, created.id, '2027-02-07T11:59:59.000Z')).cyclesBilled).toBe(0);
    const billed = await advance(s, created.id, '2027-02-07T12:00:00.000Z');
    expect(billed).toMatchObject({ status: 'active', cyclesBilled: 1, nextBillingAt: new Date('2027-03-07T12:00:00.000Z') });
  });

  it('bills nothing while paused; resume continues from the next due date', async () => {
    const s = await setup();
    const created = await create(s, { recurrence: { interval: 'weekly' } });
    await advance(s, created.id, '2027-01-31T12:00:00.000Z');
    expect((await running.client.pauseSubscription({ clientId: s.clientId, id: created.id })).status).toBe('paused');
    await advance(s, created.id, '2027-02-20T00:00:00.000Z');
    expect(await chargeCount(running.pool, s.clientId)).toBe(1);
    running.clock.set(new Date('2027-02-20T00:00:00.000Z'));
    const resumed = await running.client.resumeSubscription({ clientId: s.clientId, id: created.id });
    // Weekly from 31 January: 7, 14 and 21 February; the first not yet passed is the 21st.
    expect(resumed).toMatchObject({ status: 'active', nextBillingAt: new Date('2027-02-21T12:00:00.000Z') });
    expect(summary(await cycles(s, created.id))).toEqual([
      [1, 'authorized', '2027-01-31T12:00:00.000Z', 1],
      [2, 'canceled', '2027-02-07T12:00:00.000Z', 0],
      [4, 'scheduled', '2027-02-21T12:00:00.000Z', 0],
    ]);
  });

  it('expires when its cycles are billed', async () => {
    const s = await setup();
    const created = await create(s, { recurrence: { interval: 'daily', cycles: 2 } });
    const ended = await advance(s, created.id, '2027-03-01T00:00:00.000Z');
    expect(ended).toMatchObject({ status: 'expired', cyclesBilled: 2 });
    expect(ended.nextBillingAt).toBeUndefined();
    expect(await chargeCount(running.pool, s.clientId)).toBe(2);
  });

  it('refuses an illegal step, a card of another customer, and ids of another client', async () => {
    const s = await setup();
    const created = await create(s);
    expect(await failureOf(running.client.resumeSubscription({ clientId: s.clientId, id: created.id }))).toMatchObject({ businessCode: 'subscription_status_transition_not_allowed' });
    await running.client.cancelSubscription({ clientId: s.clientId, id: created.id });
    expect(await failureOf(running.client.pauseSubscription({ clientId: s.clientId, id: created.id }))).toMatchObject({ businessCode: 'subscription_status_transition_not_allowed' });
    expect(await failureOf(create({ ...s, customerId: randomUUID() }))).toMatchObject({ businessCode: 'card_not_of_customer' });
    const other = await setup();
    expect(await failureOf(create({ ...s, cardId: other.cardId }))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(create({ ...s, merchantId: other.merchantId }))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(running.client.getSubscription({ clientId: other.clientId, id: created.id }))).toMatchObject({ kind: 'not_found' });
  });

  it('replaces the items and card for the cycles still to bill', async () => {
    const s = await setup();
    const created = await create(s);
    await advance(s, created.id, '2027-01-31T12:00:00.000Z');
    const replaced = await running.client.replaceSubscription({
      clientId: s.clientId,
      id: created.id,
      items: [{ name: 'Beans 2 kg', amount: 8_000, quantity: 1 }],
      paymentMethod: { type: 'credit', cardId: s.cardId, installments: 1 },
    });
    expect(replaced.amount).toBe(8_000);
    expect(summary(await cycles(s, created.id)).map((c) => c[0])).toEqual([1, 2]);
    const [first, second] = await cycles(s, created.id);
    expect([first!.amount, second!.amount]).toEqual([10_000, 8_000]);
  });
});

describe('subscriptions: the durable job', () => {
  it('bills a cycle at its due time by itself, once, and opens the next one', async () => {
    running.clock.resume();
    try {
      const s = await setup();
      const created = await create(s, { recurrence: { interval: 'daily', startAt: new Date(Date.now() + 500) } });
      const billed = await eventually(
        async () => {
          const current = await running.client.getSubscription({ clientId: s.clientId, id: created.id });
          return current.cyclesBilled === 1 ? current : undefined;
        },
        'the first cycle billed by its job',
        { timeoutMs: 15_000, intervalMs: 100 },
      );
      expect(billed.status).toBe('active');
      expect(summary(await cycles(s, created.id)).map((c) => [c[0], c[1], c[3]])).toEqual([
        [1, 'authorized', 1],
        [2, 'scheduled', 0],
      ]);
      // Running what is due again (as advance does) finds the attempt made: nothing more is billed.
      const [first] = await cycles(s, created.id);
      await running.client.advanceSubscription({ clientId: s.clientId, id: created.id, to: new Date() });
      expect(await chargeCount(running.pool, s.clientId)).toBe(1);
      expect((await cycles(s, created.id))[0]!.attempts).toEqual(first!.attempts);
    } finally {
      running.clock.set(START);
    }
  });
});

/** The most cycles one advance may bill, as the route's documentation states. */
const MAX_ADVANCE_CYCLES = 36;

describe('subscriptions: the bounds of one advance', () => {
  it('refuses, with nothing billed, a `to` that would bill more cycles than one call may', async () => {
    const s = await setup();
    const created = await create(s, { recurrence: { interval: 'daily' } });
    const error = await failureOf(advance(s, created.id, '9999-12-31T23:59:59.000Z'));
    expect(error).toMatchObject({ kind: 'business_rule', businessCode: 'advance_too_far' });
    expect(error.message).toContain(String(MAX_ADVANCE_CYCLES));
    expect(await chargeCount(running.pool, s.clientId)).toBe(0);
    // One cycle more than the bound is refused; exactly the bound is billed.
    const limit = new Date(START.getTime() + (MAX_ADVANCE_CYCLES - 1) * 86_400_000);
    expect(await failureOf(advance(s, created.id, new Date(limit.getTime() + 86_400_000).toISOString()))).toMatchObject({ businessCode: 'advance_too_far' });
    expect((await advance(s, created.id, limit.toISOString())).cyclesBilled).toBe(MAX_ADVANCE_CYCLES);
    expect(await chargeCount(running.pool, s.clientId)).toBe(MAX_ADVANCE_CYCLES);
  });

  it('serializes concurrent advances of one subscription: each answers the result or a conflict, and every cycle is billed once', async () => {
    const s = await setup();
    const created = await create(s, { recurrence: { interval: 'weekly' } });
    const to = new Date(START.getTime() + 11 * 7 * 86_400_000);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => advance(s, created.id, to.toISOString())));
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      expect(await failureOf(Promise.reject(outcome.reason as Error))).toMatchObject({ kind: 'conflict', key: 'subscription_advance_in_progress' });
    }
    expect(outcomes.some((o) => o.status === 'fulfilled')).toBe(true);
    // Whatever the losers answered, one more advance finishes the work, and each cycle has one attempt and one charge.
    const after = await advance(s, created.id, to.toISOString());
    expect(after.cyclesBilled).toBe(12);
    expect(summary(await cycles(s, created.id)).map((c) => [c[1], c[3]])).toEqual([...Array.from({ length: 12 }, () => ['authorized', 1]), ['scheduled', 0]]);
    expect(await chargeCount(running.pool, s.clientId)).toBe(12);
  });

  it('takes over at once the claim of an advance whose process died, and not one whose process lives', async () => {
    const s = await setup();
    const created = await create(s, { recurrence: { interval: 'weekly' } });
    const to = new Date(START.getTime() + 7 * 86_400_000).toISOString();
    // A process holds its instance lock while it lives: a claim naming a held key is an advance under way.
    const holder = await running.pool.connect();
    const liveKey = '7300000000001';
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [liveKey]);
      const claim = (owner: string) =>
        running.pool.query(
          `INSERT INTO subscription_advances (subscription_id, client_id, token, started_at, owner_instance) VALUES ($1, $2, $3, now(), $4::bigint)
           ON CONFLICT (subscription_id) DO UPDATE SET owner_instance = EXCLUDED.owner_instance, started_at = now()`,
          [created.id, s.clientId, randomUUID(), owner],
        );
      await claim(liveKey);
      expect(await failureOf(advance(s, created.id, to))).toMatchObject({ kind: 'conflict', key: 'subscription_advance_in_progress' });
      // The same claim, by a process that has died (nobody holds its key), is no obstacle.
      await claim('7300000000002');
      expect((await advance(s, created.id, to)).cyclesBilled).toBe(2);
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [liveKey]);
      holder.release();
    }
  });
});
