import { randomUUID } from 'node:crypto';
import { payments, type sessions } from '@platform/contracts';
import { errors, withTransaction } from '@platform/kit';
import { ManualClock } from '@platform/testkit';
import type { SessionDeps } from '../../src/app/deps';
import { ATTEMPT_IN_FLIGHT_MS } from '../../src/app/chargeSession';
import { ATTEMPT_PLACE_TIMEOUT_MS, releaseStalePlaces } from '../../src/app/releaseStalePlaces';
import { createTestSession, deliverChargeEvent, depsOf, failureOf, type RunningSessions, startSessions } from '../support';

/**
 * A buyer's payment attempt whose answer and event race, whose answer is lost, whose process dies, or which is
 * retried with the same idempotency key: the session counts each charge once, and no place stays held for ever.
 */
let running: RunningSessions;
let deps: SessionDeps;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  running = await startSessions({ clock, env: { LOG_LEVEL: 'error' } });
  deps = depsOf(running, clock);
});

afterEach(() => {
  running.payments.afterCharge = undefined;
});

afterAll(async () => {
  await running.stop();
});

const credit = payments.PaymentMethod.fromPartial({ paymentType: 'credit', installments: 1 });
const pix = payments.PaymentMethod.fromPartial({ paymentType: 'pix', expiresIn: 600 });
const card = payments.PaymentSource.fromPartial({
  sourceType: 'card',
  card: { cardHolderName: 'ANA SOUZA', cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2030' },
});

const newSession = (clientId: string, overrides: Partial<sessions.CreateSessionRequest> = {}) => createTestSession(running, clientId, { paymentMethods: [credit, pix], ...overrides });

/** Pays through the service, with an X-Idempotency-Key when given, as the gateway forwards it. */
function pay(clientId: string, id: string, key?: string, method = credit): Promise<payments.Charge> {
  return running.client.chargeSession({ clientId, id, customerId: '', paymentMethod: method, paymentSource: card }, key ? { idempotencyKey: key } : undefined);
}

const chargeEvent = (clientId: string, charge: payments.Charge, status: string) => deliverChargeEvent(deps, clientId, charge, status);

async function counts(clientId: string, id: string): Promise<{ status: string; paymentCount: number; pendingCount: number; charges: number }> {
  const session = await running.client.getSession({ clientId, id });
  const { rows } = await running.pool.query<{ n: string }>('SELECT count(*) AS n FROM session_charges WHERE client_id = $1 AND session_id = $2', [clientId, id]);
  return { status: session.status, paymentCount: session.multiplePayments!.paymentCount, pendingCount: session.multiplePayments!.pendingCount, charges: Number(rows[0]!.n) };
}

describe('session payment attempts', () => {
  it('counts a charge once when its event arrives before its answer', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    running.payments.afterCharge = (charge) => chargeEvent(clientId, charge, 'authorized');
    const charge = await pay(clientId, session.id);
    expect(charge.status).toBe('authorized');
    expect(await counts(clientId, session.id)).toEqual({ status: 'paid', paymentCount: 1, pendingCount: 0, charges: 1 });
    const succeeded = (await running.client.getSessionHistory({ clientId, id: session.id })).items.filter((h) => h.action === 'paymentSucceeded');
    expect(succeeded).toHaveLength(1);
  });

  it('keeps the place of an attempt whose answer was lost until its charge is known: the event counts it at once', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    let made: payments.Charge | undefined;
    running.payments.afterCharge = async (charge) => {
      made = charge;
      throw errors.unavailable('payments went away before answering');
    };
    expect((await failureOf(pay(clientId, session.id))).kind).toBe('unavailable');
    // The charge may exist: the place stays with the attempt, so no second buyer pays the 1:1 link meanwhile.
    expect(await counts(clientId, session.id)).toEqual({ status: 'created', paymentCount: 0, pendingCount: 1, charges: 0 });
    expect((await failureOf(pay(clientId, session.id))).businessCode).toBe('session_disabled');
    await chargeEvent(clientId, made!, 'authorized');
    await chargeEvent(clientId, made!, 'authorized'); // delivered twice
    expect(await counts(clientId, session.id)).toEqual({ status: 'paid', paymentCount: 1, pendingCount: 0, charges: 1 });
    clock.advance(ATTEMPT_PLACE_TIMEOUT_MS + 1_000);
    expect(await releaseStalePlaces(deps)).toBe(0);
    expect(await counts(clientId, session.id)).toEqual({ status: 'paid', paymentCount: 1, pendingCount: 0, charges: 1 });
    const succeeded = (await running.client.getSessionHistory({ clientId, id: session.id })).items.filter((h) => h.action === 'paymentSucceeded');
    expect(succeeded.map((h) => (h.diff as { chargeId?: string }).chargeId)).toEqual([made!.id]);
  });

  it('counts a charge whose declined answer came back at once, and gives the place back', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    running.payments.afterCharge = async () => {
      throw errors.declined('card_declined', 'The card was declined');
    };
    expect((await failureOf(pay(clientId, session.id))).kind).toBe('card_declined');
    expect(await counts(clientId, session.id)).toEqual({ status: 'created', paymentCount: 0, pendingCount: 0, charges: 0 });
  });

  it('answers a retry with the same idempotency key with the same charge, counted once', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    const key = `buyer-${randomUUID()}`;
    running.payments.afterCharge = async () => {
      running.payments.afterCharge = undefined;
      throw errors.unavailable('the answer was lost');
    };
    await failureOf(pay(clientId, session.id, key));
    const again = await pay(clientId, session.id, key);
    const third = await pay(clientId, session.id, key);
    expect(third.id).toBe(again.id);
    expect(running.payments.charges.filter((c) => c.sessionId === session.id)).toHaveLength(1);
    expect(await counts(clientId, session.id)).toEqual({ status: 'paid', paymentCount: 1, pendingCount: 0, charges: 1 });
    // Another buyer (another key) meets the paid link.
    expect((await failureOf(pay(clientId, session.id, `buyer-${randomUUID()}`))).businessCode).toBe('session_disabled');
  });

  it('keeps the place when a retry with another body is refused under the first try\'s key: that charge may exist', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    const key = `buyer-${randomUUID()}`;
    let made: payments.Charge | undefined;
    running.payments.afterCharge = async (charge) => {
      made = charge;
      running.payments.afterCharge = undefined;
      throw errors.unavailable('the answer was lost');
    };
    expect((await failureOf(pay(clientId, session.id, key))).kind).toBe('unavailable');
    expect((await failureOf(pay(clientId, session.id, key, pix))).businessCode).toBe('idempotency_key_reused');
    // The first try's charge may exist: its place is not given back, so no second buyer pays the 1:1 link meanwhile.
    expect(await counts(clientId, session.id)).toEqual({ status: 'created', paymentCount: 0, pendingCount: 1, charges: 0 });
    expect((await failureOf(pay(clientId, session.id, `buyer-${randomUUID()}`))).businessCode).toBe('session_disabled');
    await chargeEvent(clientId, made!, 'authorized');
    clock.advance(ATTEMPT_PLACE_TIMEOUT_MS + 1_000);
    await releaseStalePlaces(deps);
    expect(await counts(clientId, session.id)).toEqual({ status: 'paid', paymentCount: 1, pendingCount: 0, charges: 1 });
  });

  it('makes one charge of concurrent requests with the same idempotency key', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: 5, paymentMethods: [credit] });
    const key = `buyer-${randomUUID()}`;
    const answers = await Promise.allSettled(Array.from({ length: 5 }, () => pay(clientId, session.id, key)));
    const ids = new Set(answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value.id] : [])));
    expect(ids.size).toBe(1);
    expect(running.payments.charges.filter((c) => c.sessionId === session.id)).toHaveLength(1);
    expect(await counts(clientId, session.id)).toMatchObject({ paymentCount: 1, pendingCount: 0, charges: 1 });
  });

  it('keeps the place of a pending Pix charge whose event came first, then settles it once', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    running.payments.afterCharge = (charge) => chargeEvent(clientId, charge, 'pending');
    const charge = await pay(clientId, session.id, undefined, pix);
    expect(charge.status).toBe('pending');
    expect(await counts(clientId, session.id)).toEqual({ status: 'created', paymentCount: 0, pendingCount: 1, charges: 1 });
    await chargeEvent(clientId, charge, 'authorized');
    expect(await counts(clientId, session.id)).toEqual({ status: 'paid', paymentCount: 1, pendingCount: 0, charges: 1 });
  });

  it('gives back the place of an attempt that never got an answer once it is older than the timeout', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    // An attempt whose process died after reserving: its place is held, the next buyer is refused.
    await withTransaction(running.pool, async (tx) => {
      await deps.store.beginAttempt(tx, { id: randomUUID(), clientId, sessionId: session.id, idempotencyKey: null }, clock.now());
      expect(await deps.store.reservePlace(tx, clientId, session.id, clock.now())).not.toBeNull();
    });
    // Past the time its answer could still come, no buyer waits for it any more.
    clock.advance(ATTEMPT_IN_FLIGHT_MS + 1_000);
    expect((await failureOf(pay(clientId, session.id))).businessCode).toBe('session_disabled');
    clock.advance(ATTEMPT_PLACE_TIMEOUT_MS - ATTEMPT_IN_FLIGHT_MS - 2_000);
    await releaseStalePlaces(deps);
    expect(await counts(clientId, session.id)).toMatchObject({ pendingCount: 1 });
    clock.advance(2_000);
    expect(await releaseStalePlaces(deps)).toBeGreaterThanOrEqual(1);
    expect(await counts(clientId, session.id)).toMatchObject({ status: 'created', pendingCount: 0 });
    expect(await releaseStalePlaces(deps)).toBe(0);
    const charge = await pay(clientId, session.id);
    expect(charge.status).toBe('authorized');
    expect(await counts(clientId, session.id)).toEqual({ status: 'paid', paymentCount: 1, pendingCount: 0, charges: 1 });
  });
});
