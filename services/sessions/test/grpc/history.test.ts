import { randomUUID } from 'node:crypto';
import { payments, type sessions } from '@platform/contracts';
import { ManualClock } from '@platform/testkit';
import type { SessionDeps } from '../../src/app/deps';
import { expireByDueDate } from '../../src/app/sessionDueJob';
import { ACTION_PRIORITY } from '../../src/domain/history';
import { createTestSession, deliverChargeEvent, depsOf, failureOf, type RunningSessions, startSessions } from '../support';

/**
 * The history of sessions as `GetSessionHistory` answers it. Time is the service's clock, moved by hand; charge
 * events and the due-date job are handed to the service's own handlers.
 */
let running: RunningSessions;
let deps: SessionDeps;
const clock = new ManualClock(Date.now());
const HOUR = 3_600_000;

beforeAll(async () => {
  running = await startSessions({ clock });
  deps = depsOf(running, clock);
});

afterAll(async () => {
  await running.stop();
});

function method(paymentType: string): payments.PaymentMethod {
  return payments.PaymentMethod.fromPartial({ paymentType, installments: paymentType === 'credit' ? 1 : 0 });
}

const newSession = (clientId: string, overrides: Partial<sessions.CreateSessionRequest> = {}) => createTestSession(running, clientId, overrides);

function pay(clientId: string, session: sessions.Session, paymentType = 'credit', holder = 'ANA SOUZA'): Promise<payments.Charge> {
  const paymentSource =
    paymentType === 'credit'
      ? payments.PaymentSource.fromPartial({ sourceType: 'card', card: { cardHolderName: holder, cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2030' } })
      : payments.PaymentSource.fromPartial({ sourceType: 'customer', customer: { name: 'Ana Souza', email: 'ana@example.com' } });
  return running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: method(paymentType), paymentSource });
}

async function history(clientId: string, id: string): Promise<sessions.SessionHistoryItem[]> {
  return (await running.client.getSessionHistory({ clientId, id })).items;
}

const chargeEvent = (clientId: string, charge: payments.Charge, status: string) => deliverChargeEvent(deps, clientId, charge, status);

async function outboxSubjects(clientId: string): Promise<string[]> {
  const { rows } = await running.pool.query<{ subject: string }>(`SELECT subject FROM outbox WHERE payload->>'clientId' = $1 ORDER BY subject`, [clientId]);
  return rows.map((r) => r.subject);
}

describe('session history', () => {
  it('records one item per event, newest first, with the documented fields and the charge id inside diff only', async () => {
    const clientId = randomUUID();
    const t0 = clock.now();
    const session = await newSession(clientId, { maxPayments: 2 });
    clock.advanceSeconds(1);
    const first = await pay(clientId, session);
    clock.advanceSeconds(1);
    await running.client.updateSession({ clientId, id: session.id, isActive: true, dueDate: new Date(clock.now().getTime() + 24 * HOUR) });
    clock.advanceSeconds(1);
    const second = await pay(clientId, session);

    const items = await history(clientId, session.id);
    expect(items.map((h) => [h.status, h.action])).toEqual([
      ['disabled', 'sessionExpiredByMaxPayments'],
      ['created', 'paymentSucceeded'],
      ['created', 'dueDateChanged'],
      ['created', 'paymentSucceeded'],
      ['created', 'sessionCreated'],
    ]);
    expect(items.map((h) => h.createdAt?.getTime())).toEqual([3, 3, 2, 1, 0].map((s) => t0.getTime() + s * 1000));
    expect(new Set(items.map((h) => h.id)).size).toBe(items.length);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['action', 'actions', 'clientId', 'createdAt', 'diff', 'id', 'merchantId', 'status', 'updatedAt']);
      expect(item).toMatchObject({ clientId, merchantId: session.merchantId });
      expect(item.id).not.toBe(session.id);
      expect(item.action).toBe(ACTION_PRIORITY.find((a) => item.actions.includes(a)));
    }
    expect(items[1]!.diff).toMatchObject({ chargeId: second.id, changes: { response: { from: null, to: { chargeId: second.id, status: 'authorized' } } } });
    expect(items[3]!.diff).toMatchObject({ chargeId: first.id, maxPaymentsContext: { maxPayments: 2, paymentCount: 1, pendingCount: 0 } });
    // The charge that took the last place is named by the expiry it caused.
    expect(items[0]!.diff).toEqual({
      chargeId: second.id,
      reason: 'max_payments_reached',
      changes: { isActive: { from: true, to: false, reason: 'max_payments_reached' } },
      maxPaymentsContext: { maxPayments: 2, paymentCount: 2, pendingCount: 0 },
    });
  });

  it('records the limit again when a raised maximum is reached again', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: 1 });
    await pay(clientId, session);
    await running.client.updateSession({ clientId, id: session.id, isActive: true, maxPayments: 2 });
    await pay(clientId, session);

    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments).toMatchObject({ paymentCount: 2, status: 'disabled' });
    const items = await history(clientId, session.id);
    expect(items.map((h) => h.action)).toEqual(['sessionExpiredByMaxPayments', 'paymentSucceeded', 'isActiveChanged', 'sessionExpiredByMaxPayments', 'paymentSucceeded', 'sessionCreated']);
    expect(items[2]!.actions.sort()).toEqual(['isActiveChanged', 'maxPaymentsChanged']);
    expect(items[2]!.diff).toEqual({ changes: { isActive: { from: false, to: true }, maxPayments: { from: 1, to: 2 } } });
    expect((await outboxSubjects(clientId)).filter((s) => s === 'sessions.session.disabled')).toHaveLength(2);
  });

  it('refuses to leave a 1:N session active at its maximum: 422 multiple_payments_limit_reached', async () => {
    const clientId = randomUUID();
    const full = await newSession(clientId, { maxPayments: 1 });
    await pay(clientId, full);
    expect((await failureOf(running.client.updateSession({ clientId, id: full.id, isActive: true }))).businessCode).toBe('multiple_payments_limit_reached');
    expect((await running.client.getSession({ clientId, id: full.id })).isActive).toBe(false);

    const open = await newSession(clientId, { maxPayments: 3 });
    await pay(clientId, open);
    expect((await failureOf(running.client.updateSession({ clientId, id: open.id, isActive: true, maxPayments: 1 }))).businessCode).toBe('multiple_payments_limit_reached');
    expect((await running.client.getSession({ clientId, id: open.id })).multiplePayments).toMatchObject({ maxPayments: 3, status: 'enabled' });
  });

  it('keeps one paymentPending, paymentSucceeded and paymentExpired per charge of a 1:N session when events are replayed', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: -1, paymentMethods: [method('pix')] });
    const paid = await pay(clientId, session, 'pix');
    const expired = await pay(clientId, session, 'pix');
    for (let replay = 0; replay < 2; replay++) {
      await chargeEvent(clientId, paid, 'pending');
      await chargeEvent(clientId, paid, 'authorized');
      await chargeEvent(clientId, expired, 'canceled');
    }

    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments).toMatchObject({ paymentCount: 1, pendingCount: 0 });
    const records = (await history(clientId, session.id)).filter((h) => h.action !== 'sessionCreated').map((h) => [h.action, h.diff?.chargeId]);
    expect(records.sort()).toEqual(
      [
        ['paymentPending', paid.id],
        ['paymentPending', expired.id],
        ['paymentSucceeded', paid.id],
        ['paymentExpired', expired.id],
      ].sort(),
    );
  });

  it('a manual cancel stays canceled (never disabled), with the isActive change and a stable reason', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: -1 });
    await running.client.cancelSession({ clientId, id: session.id });

    const items = await history(clientId, session.id);
    expect(items.map((h) => h.status)).toEqual(['canceled', 'created']);
    expect(items[0]).toMatchObject({ action: 'statusChanged', actions: ['statusChanged', 'isActiveChanged'] });
    expect(items[0]!.diff).toEqual({
      reason: 'canceled_by_client',
      changes: { status: { from: 'created', to: 'canceled' }, isActive: { from: true, to: false, reason: 'canceled_by_client' } },
    });
  });

  it('disables a session by its due date only once the clock reaches it, with sessionExpiredByDueDate and a stable reason', async () => {
    const clientId = randomUUID();
    const dueDate = new Date(clock.now().getTime() + HOUR);
    const session = await newSession(clientId, { dueDate });
    const job = { clientId, sessionId: session.id };

    clock.advance(HOUR - 1);
    expect(await expireByDueDate(deps, job)).toEqual({ rescheduleAt: dueDate });
    expect((await history(clientId, session.id)).map((h) => h.action)).toEqual(['sessionCreated']);

    clock.advance(1);
    expect(await expireByDueDate(deps, job)).toBeUndefined();
    const top = (await history(clientId, session.id))[0]!;
    expect(top).toMatchObject({ status: 'disabled', action: 'sessionExpiredByDueDate', actions: ['sessionExpiredByDueDate', 'isActiveChanged'] });
    expect(top.diff).toEqual({
      reason: 'session_due_date_reached',
      dueDate: dueDate.toISOString(),
      changes: { isActive: { from: true, to: false, reason: 'session_due_date_reached' } },
    });
    expect((await failureOf(pay(clientId, session))).businessCode).toBe('session_disabled');
  });

  it('blocks reactivating a paid 1:1 Pix session (422 pix_boleto_one_to_one_reactivation_blocked), a paid card one with session_disabled', async () => {
    const clientId = randomUUID();
    const pix = await newSession(clientId, { paymentMethods: [method('pix')] });
    await chargeEvent(clientId, await pay(clientId, pix, 'pix'), 'authorized');
    expect(await running.client.getSession({ clientId, id: pix.id })).toMatchObject({ status: 'paid', isActive: true });
    expect((await failureOf(running.client.updateSession({ clientId, id: pix.id, isActive: true }))).businessCode).toBe('pix_boleto_one_to_one_reactivation_blocked');

    const card = await newSession(clientId);
    await pay(clientId, card);
    expect((await failureOf(running.client.updateSession({ clientId, id: card.id, isActive: true }))).businessCode).toBe('session_disabled');
  });

  it('blocks reactivating an expired 1:1 boleto session, also with or after a new due date', async () => {
    const clientId = randomUUID();
    const later = () => new Date(clock.now().getTime() + 24 * HOUR);
    const boleto = await newSession(clientId, { paymentMethods: [method('boleto')], dueDate: new Date(clock.now().getTime() + HOUR) });
    const card = await newSession(clientId, { dueDate: new Date(clock.now().getTime() + HOUR) });
    clock.advance(HOUR);
    await expireByDueDate(deps, { clientId, sessionId: boleto.id });
    await expireByDueDate(deps, { clientId, sessionId: card.id });

    const blocked = 'pix_boleto_one_to_one_reactivation_blocked';
    expect((await failureOf(running.client.updateSession({ clientId, id: boleto.id, isActive: true }))).businessCode).toBe(blocked);
    expect((await failureOf(running.client.updateSession({ clientId, id: boleto.id, isActive: true, dueDate: later() }))).businessCode).toBe(blocked);
    await running.client.updateSession({ clientId, id: boleto.id, isActive: false, dueDate: later() });
    expect((await failureOf(running.client.updateSession({ clientId, id: boleto.id, isActive: true }))).businessCode).toBe(blocked);
    expect((await running.client.getSession({ clientId, id: boleto.id })).isActive).toBe(false);

    // A card session that expired takes payments again with a new due date.
    await expect(running.client.updateSession({ clientId, id: card.id, isActive: true, dueDate: later() })).resolves.toMatchObject({ isActive: true });
  });

  it('records no change for a due date sent again unchanged', async () => {
    const clientId = randomUUID();
    const dueDate = new Date(clock.now().getTime() + 24 * HOUR);
    const session = await newSession(clientId, { dueDate });
    await running.client.updateSession({ clientId, id: session.id, isActive: true, dueDate });
    expect((await history(clientId, session.id)).map((h) => h.action)).toEqual(['sessionCreated']);
    expect(await outboxSubjects(clientId)).toEqual(['sessions.session.created']);
  });

  it('records an attempt that made no charge without a charge id, with the decline code in the response', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: -1 });
    expect((await failureOf(pay(clientId, session, 'credit', 'DECLINED'))).kind).toBe('card_declined');

    const top = (await history(clientId, session.id))[0]!;
    expect(top).toMatchObject({ status: 'created', action: 'paymentFailed' });
    expect(Object.keys(top.diff ?? {})).not.toContain('chargeId');
    expect(top.diff?.changes.response.to).toEqual({ status: 'declined', amount: 5000, paymentType: 'credit', declinedCode: 'card_declined' });
  });

  it('a Pix charge paid after its 1:1 session was canceled is counted, the session stays canceled and is not announced as paid', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { paymentMethods: [method('pix')] });
    const charge = await pay(clientId, session, 'pix');
    await running.client.cancelSession({ clientId, id: session.id });
    await chargeEvent(clientId, charge, 'authorized');

    expect(await running.client.getSession({ clientId, id: session.id })).toMatchObject({ status: 'canceled', multiplePayments: { paymentCount: 1, pendingCount: 0 } });
    expect((await history(clientId, session.id))[0]).toMatchObject({ status: 'canceled', action: 'paymentSucceeded' });
    expect(await outboxSubjects(clientId)).not.toContain('sessions.session.paid');
  });

  it('a paid 1:1 session whose charge is voided becomes voided, once', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId);
    const charge = await pay(clientId, session);
    await chargeEvent(clientId, charge, 'voided');
    await chargeEvent(clientId, charge, 'voided');

    expect((await running.client.getSession({ clientId, id: session.id })).status).toBe('voided');
    const items = await history(clientId, session.id);
    expect(items.map((h) => [h.status, h.action])).toEqual([
      ['voided', 'paymentVoided'],
      ['paid', 'paymentSucceeded'],
      ['created', 'sessionCreated'],
    ]);
    expect(items[0]!.actions).toEqual(['paymentVoided', 'statusChanged']);
    expect(items[0]!.diff).toMatchObject({ chargeId: charge.id, reason: 'charge_voided', changes: { status: { from: 'paid', to: 'voided' }, response: { to: { chargeId: charge.id, status: 'voided' } } } });
    expect((await failureOf(running.client.updateSession({ clientId, id: session.id, isActive: true }))).businessCode).toBe('session_disabled');
  });
  it('is newest first by time, then by the order of writing: items of the same instant keep one order', async () => {
    const clientId = randomUUID();
    const session = await newSession(clientId, { maxPayments: -1 });
    // Two buyers' answers read the clock before one of them takes the session's lock: the item written later may
    // carry the earlier time (as a burst wrote …01.526, …01.526, …01.523, …01.524).
    const base = clock.now().getTime() + 60_000;
    const written = [526, 526, 523, 524].map((ms, n) => ({ ms, action: 'paymentSucceeded', n }));
    for (const w of written) {
      await deps.store.addHistory(deps.pool, {
        id: randomUUID(),
        sessionId: session.id,
        clientId,
        merchantId: session.merchantId,
        status: 'created',
        action: w.action,
        actions: [w.action],
        diff: { n: w.n },
        dedupeKey: `order-${w.n}`,
        createdAt: new Date(base + w.ms),
      });
    }
    // The clock stands still: three changes of the same instant.
    const still = new Date(base + 1_000);
    clock.set(still);
    for (const isActive of [false, true, false]) await running.client.updateSession({ clientId, id: session.id, isActive });

    const expected = [
      ['isActiveChanged', still.getTime()],
      ['isActiveChanged', still.getTime()],
      ['isActiveChanged', still.getTime()],
      ['paymentSucceeded', base + 526, 1],
      ['paymentSucceeded', base + 526, 0],
      ['paymentSucceeded', base + 524, 3],
      ['paymentSucceeded', base + 523, 2],
    ];
    for (let read = 0; read < 3; read++) {
      const items = (await history(clientId, session.id)).slice(0, expected.length);
      expect(items.map((h) => [h.action, h.createdAt?.getTime(), ...(typeof h.diff?.n === 'number' ? [h.diff.n] : [])])).toEqual(expected);
      // The three changes of the same instant, newest first: the last one (inactive) on top.
      expect(items.slice(0, 3).map((h) => h.diff?.changes?.isActive?.to)).toEqual([false, true, false]);
    }
  });
});
