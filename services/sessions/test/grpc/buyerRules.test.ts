import { randomUUID } from 'node:crypto';
import { payments, type sessions } from '@platform/contracts';
import { errors } from '@platform/kit';
import { ManualClock } from '@platform/testkit';
import type { SessionDeps } from '../../src/app/deps';
import { createTestSession, deliverChargeEvent, depsOf, failureOf, type RunningSessions, startSessions } from '../support';

/**
 * What a buyer holding a session's public key may do: pay within the methods and installments the session offers,
 * with what the buyer brings only; a session's split is the one a charge would take; and attempts that are declined
 * or get no answer keep no buyer out longer than their outcome takes.
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

const method = (paymentType: string, fields: Partial<payments.PaymentMethod> = {}) => payments.PaymentMethod.fromPartial({ paymentType, ...fields });
const typedCard = payments.PaymentSource.fromPartial({
  sourceType: 'card',
  card: { cardHolderName: 'ANA SOUZA', cardNumber: '4111111111111111', cardCvv: '123', cardExpirationDate: '12/2030' },
});
const buyer = payments.PaymentSource.fromPartial({ sourceType: 'customer', customer: { name: 'Ana Souza', email: 'ana@example.com' } });

function pay(clientId: string, id: string, paymentMethod: payments.PaymentMethod, paymentSource: payments.PaymentSource = typedCard, customerId = ''): Promise<payments.Charge> {
  return running.client.chargeSession({ clientId, id, customerId, paymentMethod, paymentSource });
}

const askedFor = (sessionId: string) => running.payments.charges.filter((c) => c.sessionId === sessionId);
const counters = async (clientId: string, id: string) => (await running.client.getSession({ clientId, id })).multiplePayments!;

describe('a session payment stays within what the session offers', () => {
  it("refuses installments above the session's offer, and pays within it", async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId, { maxPayments: -1, paymentMethods: [method('credit', { installments: 3 })] });
    for (const installments of [4, 12, 24]) {
      const failure = await failureOf(pay(clientId, session.id, method('credit', { installments })));
      expect(failure).toMatchObject({ kind: 'validation', details: [{ field: 'paymentMethod.installments', message: 'must be from 1 to 3: the session offers up to 3' }] });
    }
    expect(askedFor(session.id)).toHaveLength(0);
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 0, pendingCount: 0 });
    await pay(clientId, session.id, method('credit', { installments: 3 }));
    // Not given: one installment, not the session's most.
    await pay(clientId, session.id, method('credit'));
    expect(askedFor(session.id).map((c) => c.paymentMethod?.installments)).toEqual([3, 1]);
  });

  it('pays a session that names no installments in one, and takes no recurrence from the buyer', async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId, { maxPayments: -1, paymentMethods: [method('credit')] });
    const failure = await failureOf(pay(clientId, session.id, method('credit', { installments: 2 })));
    expect(failure.details).toEqual([{ field: 'paymentMethod.installments', message: 'must be 1: the session offers no installments' }]);
    await pay(clientId, session.id, method('credit', { installments: 1, recurrence: 'subsequent' }));
    expect(askedFor(session.id).map((c) => [c.paymentMethod?.installments, c.paymentMethod?.recurrence])).toEqual([[1, '']]);
  });
});

describe('a session is paid with what its buyer brings', () => {
  const refusals: Array<[string, payments.PaymentSource, string, string[]]> = [
    ['a saved card', payments.PaymentSource.fromPartial({ sourceType: 'card', cardId: randomUUID() }), '', ['paymentSource.cardId']],
    ['a saved card with its CVV', payments.PaymentSource.fromPartial({ sourceType: 'card', cardId: randomUUID(), cardCvv: '123' }), '', ['paymentSource.cardId']],
    [
      "a stored customer's saved card",
      payments.PaymentSource.fromPartial({ sourceType: 'customer', customerId: randomUUID(), cardId: randomUUID() }),
      '',
      ['paymentSource.customerId', 'paymentSource.cardId'],
    ],
    ['a stored customer', payments.PaymentSource.fromPartial({ sourceType: 'customer', customerId: randomUUID() }), '', ['paymentSource.customerId']],
    ['a typed card for a stored customer', typedCard, randomUUID(), ['customerId']],
    ['a wallet', payments.PaymentSource.fromPartial({ sourceType: 'wallet' }), '', ['paymentSource.sourceType']],
  ];

  it.each(refusals)('refuses %s before any place is taken or payments is asked', async (_what, source, customerId, fields) => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId, { paymentMethods: [method('credit', { installments: 1 }), method('pix', { expiresIn: 600 })] });
    const failure = await failureOf(pay(clientId, session.id, method(source.sourceType === 'customer' && !source.cardId ? 'pix' : 'credit'), source, customerId));
    expect(failure.kind).toBe('validation');
    expect(failure.details!.map((d) => d.field)).toEqual(fields);
    expect(askedFor(session.id)).toHaveLength(0);
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 0, pendingCount: 0 });
  });

  it("pays with a typed card, and Pix or boleto with the buyer's data, for no stored customer", async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId, {
      maxPayments: -1,
      paymentMethods: [method('credit', { installments: 1 }), method('pix', { expiresIn: 600 }), method('boleto', { expiresDate: '2030-01-10' })],
    });
    expect((await pay(clientId, session.id, method('credit'))).status).toBe('authorized');
    expect((await pay(clientId, session.id, method('pix'), buyer)).status).toBe('pending');
    expect((await pay(clientId, session.id, method('boleto'), buyer)).status).toBe('pending');
    expect(askedFor(session.id).map((c) => c.customerId)).toEqual(['', '', '']);
  });
});

describe('a session is paid with a token only when the token was made for it', () => {
  const byToken = (tokenId: string) => payments.PaymentSource.fromPartial({ sourceType: 'token', tokenId });

  const historyOf = async (clientId: string, id: string) => (await running.client.getSessionHistory({ clientId, id })).items;

  async function nothingWritten(clientId: string, sessionId: string, history: unknown[]): Promise<void> {
    expect(askedFor(sessionId)).toHaveLength(0);
    expect(await counters(clientId, sessionId)).toMatchObject({ paymentCount: 0, pendingCount: 0 });
    const { rows } = await running.pool.query<{ attempts: number }>('SELECT count(*)::int AS attempts FROM session_attempts WHERE session_id = $1', [sessionId]);
    expect(rows[0]!.attempts).toBe(0);
    expect(await historyOf(clientId, sessionId)).toEqual(history);
  }

  it("refuses a client-made token and another session's token before any place is taken or payments is asked to charge", async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId);
    const other = await createTestSession(running, clientId);
    const history = await historyOf(clientId, session.id);
    const clientMade = running.payments.addToken(clientId);
    const ofOther = running.payments.addToken(clientId, other.id);
    for (const [tokenId, says] of [
      [clientMade, /made with a client key/],
      [ofOther, /made for another session/],
    ] as const) {
      const failure = await failureOf(pay(clientId, session.id, method('credit'), byToken(tokenId)));
      expect(failure).toMatchObject({ kind: 'business_rule', businessCode: 'token_not_for_session' });
      expect(failure.message).toMatch(says);
    }
    await nothingWritten(clientId, session.id, history);
    // An unknown token (or another client's) is not found, as the source it names, before any place is taken.
    const foreign = running.payments.addToken(randomUUID(), session.id);
    for (const tokenId of [randomUUID(), foreign]) expect((await failureOf(pay(clientId, session.id, method('credit'), byToken(tokenId)))).kind).toBe('not_found');
    expect((await failureOf(pay(clientId, session.id, method('credit'), byToken(' ')))).details).toEqual([{ field: 'paymentSource.tokenId', message: 'is required' }]);
    await nothingWritten(clientId, session.id, history);
  });

  it("pays with a token made with the session's public key", async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId);
    const tokenId = running.payments.addToken(clientId, session.id);
    expect((await pay(clientId, session.id, method('credit'), byToken(tokenId))).status).toBe('authorized');
    expect(askedFor(session.id).map((c) => c.paymentSource)).toEqual([expect.objectContaining({ sourceType: 'token', tokenId })]);
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 1, pendingCount: 0 });
  });
});

describe("a session's split is checked as a charge's", () => {
  const sellerA = randomUUID();
  const sellerB = randomUUID();
  const rule = (sellerId: string, share: { percentage?: number; amount?: number }) => ({ sellerId, processingFee: false, chargeRemainderFee: false, liable: false, ...share });
  const cases: Array<[string, ReturnType<typeof rule>[], string[]]> = [
    ['shares adding up to 150%', [rule(sellerA, { percentage: 10_000 }), rule(sellerB, { percentage: 5_000 })], ['splitRules']],
    ['shares adding up to less than the amount', [rule(sellerA, { amount: 1_000 })], ['splitRules']],
    ['one seller twice', [rule(sellerA, { percentage: 5_000 }), rule(sellerA, { percentage: 5_000 })], ['splitRules.1.sellerId']],
    ['a share of neither percentage nor amount', [rule(sellerA, {})], ['splitRules.0']],
  ];

  it.each(cases)('refuses a session with %s, storing nothing and asking no one', async (_what, splitRules, fields) => {
    const clientId = randomUUID();
    const failure = await failureOf(createTestSession(running, clientId, { splitRules }));
    expect(failure.kind).toBe('validation');
    expect(failure.details!.map((d) => d.field)).toEqual(fields);
    const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE client_id = $1', [clientId]);
    expect(rows[0]!.n).toBe(0);
    expect(running.sellers.asked.filter((q) => q.clientId === clientId)).toEqual([]);
  });

  it('takes no payment on a session stored with a split a charge refuses (before splits were checked)', async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId, { splitRules: [rule(sellerA, { percentage: 10_000 })] });
    await running.pool.query('UPDATE sessions SET split_rules = $2 WHERE id = $1', [
      session.id,
      JSON.stringify([rule(sellerA, { percentage: 10_000 }), rule(sellerB, { percentage: 5_000 })]),
    ]);
    expect(await failureOf(pay(clientId, session.id, method('credit')))).toMatchObject({ kind: 'business_rule', businessCode: 'session_disabled' });
    expect(askedFor(session.id)).toHaveLength(0);
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 0, pendingCount: 0 });
  });

  it('keeps a split that adds up, and charges with it', async () => {
    const clientId = randomUUID();
    const splitRules = [rule(sellerA, { percentage: 6_000 }), rule(sellerB, { amount: 2_000 })];
    const session = await createTestSession(running, clientId, { splitRules });
    expect(session.splitRules).toEqual(splitRules);
    await pay(clientId, session.id, method('credit'));
    expect(askedFor(session.id)[0]!.splitRules).toEqual(splitRules);
  });
});

describe('declined and unanswered attempts keep no buyer out', () => {
  /** Holds the answers of the next `count` charges until `open` is called, then declines them. */
  function declineLater(count: number): { open(): void; held: Promise<void> } {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let seen = 0;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    running.payments.afterCharge = async () => {
      seen += 1;
      if (seen > count) return;
      if (seen === count) reached();
      await gate;
      throw errors.declined('insufficient_funds', 'The card was declined');
    };
    return { open, held };
  }

  /** Resolves when the service next runs a statement matching `pattern` on its pool (a buyer looking at attempts in flight). */
  function whenQueried(pattern: RegExp): Promise<void> {
    const pool = running.pool as unknown as { query: (...args: unknown[]) => unknown };
    const original = pool.query;
    return new Promise((resolve) => {
      pool.query = function (this: unknown, ...args: unknown[]) {
        const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: unknown } | undefined)?.text ?? '');
        if (pattern.test(text)) {
          delete (pool as { query?: unknown }).query;
          resolve();
        }
        return original.apply(this, args);
      };
    });
  }

  it('a buyer who finds every place held by attempts in flight waits for them: declined, they give the places back', async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId, { maxPayments: 2 });
    const later = declineLater(2);
    const declined = [pay(clientId, session.id, method('credit')), pay(clientId, session.id, method('credit'))].map((p) => failureOf(p));
    await later.held;
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 0, pendingCount: 2 });
    // The third buyer comes while both places are held by attempts whose answer is not back; the answers come
    // once it was refused a place (or told the session is full).
    const waiting = whenQueried(/NOT answer_lost/);
    const third = pay(clientId, session.id, method('credit'));
    await Promise.race([waiting, third.catch(() => undefined)]);
    later.open();
    expect((await Promise.all(declined)).map((f) => f.kind)).toEqual(['card_declined', 'card_declined']);
    expect((await third).status).toBe('authorized');
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 1, pendingCount: 0, status: 'enabled' });
  });

  it('gives the place of an attempt that got no answer back as soon as its charge is known failed, not at the sweep', async () => {
    const clientId = randomUUID();
    const session = await createTestSession(running, clientId);
    let made: payments.Charge | undefined;
    running.payments.afterCharge = async (charge) => {
      made = charge;
      running.payments.afterCharge = undefined;
      throw errors.unavailable('the call was cut before the answer');
    };
    expect((await failureOf(pay(clientId, session.id, method('credit')))).kind).toBe('unavailable');
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 0, pendingCount: 1 });
    // No buyer waits for an attempt whose answer is lost: the 1:1 link is held, said at once.
    expect((await failureOf(pay(clientId, session.id, method('credit')))).businessCode).toBe('session_disabled');
    await deliverChargeEvent(deps, clientId, made!, 'failed');
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 0, pendingCount: 0, status: 'enabled' });
    expect((await pay(clientId, session.id, method('credit'))).status).toBe('authorized');
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 1, pendingCount: 0 });
  });

  it('counts the charge of an attempt that got no answer as soon as its event says it was paid', async () => {
    const clientId = randomUUID();
    const session: sessions.Session = await createTestSession(running, clientId, { maxPayments: 3 });
    let made: payments.Charge | undefined;
    running.payments.afterCharge = async (charge) => {
      made = charge;
      running.payments.afterCharge = undefined;
      throw errors.unavailable('the call was cut before the answer');
    };
    await failureOf(pay(clientId, session.id, method('credit')));
    await deliverChargeEvent(deps, clientId, made!, 'authorized');
    await deliverChargeEvent(deps, clientId, made!, 'authorized');
    expect(await counters(clientId, session.id)).toMatchObject({ paymentCount: 1, pendingCount: 0 });
    const { rows } = await running.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM session_attempts WHERE session_id = $1 AND holds_place', [session.id]);
    expect(rows[0]!.n).toBe(0);
  });
});
