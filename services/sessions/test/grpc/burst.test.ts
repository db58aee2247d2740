import { randomUUID } from 'node:crypto';
import { payments } from '@platform/contracts';
import { errors } from '@platform/kit';
import { eventually, ManualClock } from '@platform/testkit';
import { createTestSession, failureOf, type RunningSessions, startSessions } from '../support';

/**
 * A burst of buyers on a 1:N link: every place is sold to a buyer whose card is good while one is free. A buyer who
 * finds every place held by attempts still waiting for their answer waits for them; a declined attempt gives its
 * place to the next buyer; the link never takes one payment more than its maximum.
 */
let running: RunningSessions;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  running = await startSessions({ clock, env: { LOG_LEVEL: 'error' } });
});

afterEach(() => {
  running.payments.afterCharge = undefined;
});

afterAll(async () => {
  await running.stop();
});

const credit = payments.PaymentMethod.fromPartial({ paymentType: 'credit', installments: 1 });
const card = (holder: string) =>
  payments.PaymentSource.fromPartial({ sourceType: 'card', card: { cardHolderName: holder, cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2030' } });
const GOOD = 'ANA SOUZA';
const SLOW_DECLINE = 'BIA SLOW DECLINE';

async function outcomeOf(answer: Promise<payments.Charge>): Promise<string> {
  try {
    return (await answer).status;
  } catch (error) {
    const failure = await failureOf(Promise.reject(error));
    return failure.businessCode ? `${failure.kind} ${failure.businessCode}` : failure.kind;
  }
}

/**
 * Declines of `SLOW_DECLINE` cards held until `open()`: the first `count` such attempts hold their places meanwhile
 * (`held` resolves once they all do); later ones are declined at once.
 */
function slowDeclines(count: number): { open(): void; held: Promise<void> } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let seen = 0;
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  running.payments.afterCharge = async (_charge, request) => {
    if (request.paymentSource?.card?.cardHolderName !== SLOW_DECLINE) return;
    seen += 1;
    if (seen === count) reached();
    await gate;
    throw errors.declined('insufficient_funds', 'The card was declined');
  };
  return { open, held };
}

describe('a burst of buyers on a 1:N link', () => {
  it('40 buyers at once on a 5-payment link: exactly 5 good cards paid, declined cards give their places back, no buyer told to retry', async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId, { maxPayments: 5 });
    const pay = (holder: string) => running.client.chargeSession({ clientId, id: session.id, customerId: '', paymentMethod: credit, paymentSource: card(holder) });
    const later = slowDeclines(5);

    // Five buyers whose cards will be declined take every place first and wait for their answer.
    const first = Array.from({ length: 5 }, () => outcomeOf(pay(SLOW_DECLINE)));
    await later.held;
    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments).toMatchObject({ paymentCount: 0, pendingCount: 5 });
    // Thirty-five more come at once: five more declined cards, thirty good ones.
    const holdersOfRest = [...Array<string>(5).fill(SLOW_DECLINE), ...Array<string>(30).fill(GOOD)];
    const rest = holdersOfRest.map((holder) => outcomeOf(pay(holder)).then((outcome) => ({ holder, outcome })));
    // All of them wait in the session's queue for the places in doubt; then the five declines come back.
    await eventually(() => (running.places.waiting(session.id) === 35 ? true : undefined), '35 buyers waiting for a place', { timeoutMs: 10_000 });
    later.open();

    expect(await Promise.all(first)).toEqual(Array(5).fill('card_declined'));
    const answers = await Promise.all(rest);
    const good = answers.filter((a) => a.holder === GOOD).map((a) => a.outcome);
    expect(good.filter((o) => o === 'authorized')).toHaveLength(5);
    expect(good.filter((o) => o !== 'authorized')).toEqual(Array(25).fill('business_rule multiple_payments_limit_reached'));
    for (const a of answers.filter((x) => x.holder === SLOW_DECLINE)) expect(['card_declined', 'business_rule multiple_payments_limit_reached']).toContain(a.outcome);

    expect((await running.client.getSession({ clientId, id: session.id })).multiplePayments).toEqual({
      allow: true,
      maxPayments: 5,
      paymentCount: 5,
      pendingCount: 0,
      status: 'disabled',
    });
    // Payments was asked for five good cards only: no buyer was charged beyond the link's places.
    const goodCharges = running.payments.charges.filter((c) => c.sessionId === session.id && c.paymentSource?.card?.cardHolderName === GOOD);
    expect(goodCharges).toHaveLength(5);
    const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM session_attempts WHERE client_id = $1 AND holds_place', [clientId]);
    expect(rows[0]!.n).toBe(0);
  });
});
