import { AppError } from '@platform/kit';
import fc from 'fast-check';
import { canCycleMove, CYCLE_STATUSES, CYCLE_TRANSITIONS, isSubscriptionEventAllowed, nextCycleStatus, nextSubscriptionStatus, PAUSABLE_STATUSES, resumedStatus, SUBSCRIPTION_EVENTS, SUBSCRIPTION_STATUSES, SUBSCRIPTION_TRANSITIONS, type CycleStatus, type SubscriptionEvent, type SubscriptionStatus } from '../../src/modules/subscriptions/domain/subscriptionStatus';
import { addInterval, cycleDueAt, daysInMonth, INTERVALS, type Interval } from '../../src/modules/subscriptions/domain/calendar';
import { afterFailedAttempt, HARD_DECLINES, isHardDecline, type RetryPolicy } from '../../src/modules/subscriptions/domain/dunning';
import { parseItems, parseNewSubscription, type NewSubscriptionInput } from '../../src/modules/subscriptions/domain/newSubscription';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

const utc = (iso: string): Date => new Date(iso);
const iso = (date: Date): string => date.toISOString();

// ---------------------------------------------------------------- subscription statuses

const allowedSubscriptionMoves: Array<[SubscriptionStatus, SubscriptionEvent, SubscriptionStatus]> = [
  ['created', 'trial_started', 'trialing'],
  ['created', 'cycle_paid', 'active'],
  ['created', 'cycle_failed', 'unpaid'],
  ['created', 'pause', 'paused'],
  ['created', 'cancel', 'canceled'],
  ['trialing', 'cycle_paid', 'active'],
  ['trialing', 'cycle_failed', 'unpaid'],
  ['trialing', 'pause', 'paused'],
  ['trialing', 'cancel', 'canceled'],
  ['active', 'cycle_paid', 'active'],
  ['active', 'cycle_failed', 'unpaid'],
  ['active', 'cycles_reached', 'expired'],
  ['active', 'pause', 'paused'],
  ['active', 'cancel', 'canceled'],
  ['unpaid', 'cycle_paid', 'active'],
  ['unpaid', 'cycle_failed', 'unpaid'],
  ['unpaid', 'retries_exhausted_cancel', 'canceled'],
  ['unpaid', 'retries_exhausted_keep', 'unpaid'],
  ['unpaid', 'cycles_reached', 'expired'],
  ['unpaid', 'pause', 'paused'],
  ['unpaid', 'cancel', 'canceled'],
  ['paused', 'cancel', 'canceled'],
];

describe('subscription status table', () => {
  it('lists exactly the allowed moves (resume aside)', () => {
    const listed = SUBSCRIPTION_STATUSES.flatMap((from) =>
      Object.entries(SUBSCRIPTION_TRANSITIONS[from]).map(([event, to]) => [from, event, to]),
    );
    expect(listed.sort()).toEqual([...allowedSubscriptionMoves].sort());
  });

  it.each(allowedSubscriptionMoves)('a %s subscription may %s and becomes %s', (from, event, to) => {
    expect(isSubscriptionEventAllowed(from, event)).toBe(true);
    expect(nextSubscriptionStatus(from, event)).toBe(to);
  });

  const refused: Array<[SubscriptionStatus, SubscriptionEvent]> = SUBSCRIPTION_STATUSES.flatMap((from) =>
    SUBSCRIPTION_EVENTS.filter((event) => !(event === 'resume' && from === 'paused'))
      .filter((event) => !allowedSubscriptionMoves.some(([f, e]) => f === from && e === event))
      .map((event): [SubscriptionStatus, SubscriptionEvent] => [from, event]),
  );

  it('refuses every other move (the table read the other way)', () => {
    // 7 statuses × 9 events, less the 22 listed moves and the resume of a paused one.
    expect(refused).toHaveLength(7 * 9 - 22 - 1);
  });

  it.each(refused)('a %s subscription cannot %s', (from, event) => {
    expect(isSubscriptionEventAllowed(from, event)).toBe(false);
    const error = thrown(() => nextSubscriptionStatus(from, event, { resumeTo: 'active' }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      kind: 'business_rule',
      businessCode: 'subscription_status_transition_not_allowed',
      message: `A ${from} subscription cannot ${event}`,
    });
  });

  it('refuses to pause a paused subscription and to resume one that is not paused', () => {
    expect(thrown(() => nextSubscriptionStatus('paused', 'pause'))).toMatchObject({
      businessCode: 'subscription_status_transition_not_allowed',
      message: 'A paused subscription cannot pause',
    });
    for (const from of ['created', 'trialing', 'active', 'unpaid', 'canceled', 'expired'] as const) {
      expect(thrown(() => nextSubscriptionStatus(from, 'resume', { resumeTo: 'active' }))).toMatchObject({
        businessCode: 'subscription_status_transition_not_allowed',
        message: `A ${from} subscription cannot resume`,
      });
    }
  });

  it('ends in canceled and expired', () => {
    for (const status of ['canceled', 'expired'] as const) {
      expect(Object.keys(SUBSCRIPTION_TRANSITIONS[status])).toEqual([]);
      for (const event of SUBSCRIPTION_EVENTS) expect(isSubscriptionEventAllowed(status, event)).toBe(false);
    }
  });

  it('may be paused from created, trialing, active and unpaid', () => {
    expect([...PAUSABLE_STATUSES].sort()).toEqual(['active', 'created', 'trialing', 'unpaid']);
  });
});

describe('resume', () => {
  it.each(['created', 'trialing', 'active', 'unpaid'] as const)('goes back to %s when paused from it', (before) => {
    expect(resumedStatus(before)).toBe(before);
    const paused = nextSubscriptionStatus(before, 'pause');
    expect(paused).toBe('paused');
    expect(nextSubscriptionStatus(paused, 'resume', { resumeTo: resumedStatus(before) })).toBe(before);
  });

  it('needs the status the subscription was paused from', () => {
    const error = thrown(() => nextSubscriptionStatus('paused', 'resume'));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
  });

  it.each(['paused', 'canceled', 'expired'] as const)('knows a subscription cannot have been paused from %s', (before) => {
    expect(() => resumedStatus(before)).toThrow(Error);
    expect(() => nextSubscriptionStatus('paused', 'resume', { resumeTo: before })).toThrow(Error);
  });
});

// ---------------------------------------------------------------- cycle statuses

const allowedCycleMoves: Array<[CycleStatus, CycleStatus]> = [
  ['scheduled', 'pending'],
  ['scheduled', 'canceled'],
  ['pending', 'authorized'],
  ['pending', 'failed'],
  ['pending', 'retrying'],
  ['retrying', 'pending'],
  ['retrying', 'canceled'],
];

describe('cycle status table', () => {
  it('lists exactly the allowed moves', () => {
    const listed = CYCLE_STATUSES.flatMap((from) => CYCLE_TRANSITIONS[from].map((to) => [from, to]));
    expect(listed.sort()).toEqual([...allowedCycleMoves].sort());
  });

  it.each(allowedCycleMoves)('a %s cycle may become %s', (from, to) => {
    expect(canCycleMove(from, to)).toBe(true);
    expect(nextCycleStatus(from, to)).toBe(to);
  });

  const refused = CYCLE_STATUSES.flatMap((from) =>
    CYCLE_STATUSES.filter((to) => !allowedCycleMoves.some(([f, t]) => f === from && t === to)).map((to): [CycleStatus, CycleStatus] => [from, to]),
  );

  it.each(refused)('a %s cycle cannot become %s (a fault of the code, not a request)', (from, to) => {
    expect(canCycleMove(from, to)).toBe(false);
    const error = thrown(() => nextCycleStatus(from, to));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
  });

  it('ends in authorized, failed and canceled', () => {
    for (const status of ['authorized', 'failed', 'canceled'] as const) expect(CYCLE_TRANSITIONS[status]).toEqual([]);
    expect(refused).toHaveLength(6 * 6 - 7);
  });
});

// ---------------------------------------------------------------- schedule

describe('due times', () => {
  it('bills the first cycle at the anchor', () => {
    const anchor = utc('2025-03-10T14:30:15.250Z');
    for (const interval of INTERVALS) {
      expect(iso(cycleDueAt(anchor, interval, 1))).toBe(iso(anchor));
      expect(iso(addInterval(anchor, interval, 0))).toBe(iso(anchor));
    }
  });

  it('adds days for daily and weeks for weekly, in UTC', () => {
    const anchor = utc('2025-02-27T23:30:00.000Z');
    expect(iso(addInterval(anchor, 'daily', 1))).toBe('2025-02-28T23:30:00.000Z');
    expect(iso(addInterval(anchor, 'daily', 2))).toBe('2025-03-01T23:30:00.000Z');
    expect(iso(addInterval(anchor, 'daily', 365))).toBe('2026-02-27T23:30:00.000Z');
    expect(iso(cycleDueAt(anchor, 'daily', 3))).toBe('2025-03-01T23:30:00.000Z');
    expect(iso(addInterval(anchor, 'weekly', 1))).toBe('2025-03-06T23:30:00.000Z');
    expect(iso(addInterval(anchor, 'weekly', 52))).toBe('2026-02-26T23:30:00.000Z');
    expect(iso(cycleDueAt(anchor, 'weekly', 5))).toBe('2025-03-27T23:30:00.000Z');
    // Brazil and Europe change their clocks; the schedule does not.
    const acrossDst = utc('2025-03-29T12:00:00.000Z');
    expect(iso(addInterval(acrossDst, 'daily', 1))).toBe('2025-03-30T12:00:00.000Z');
  });

  it('clamps a monthly schedule from Jan 31 to each month’s last day without drifting', () => {
    const anchor = utc('2025-01-31T09:15:00.000Z');
    const dues = Array.from({ length: 13 }, (_, n) => iso(cycleDueAt(anchor, 'monthly', n + 1)));
    expect(dues).toEqual([
      '2025-01-31T09:15:00.000Z',
      '2025-02-28T09:15:00.000Z',
      '2025-03-31T09:15:00.000Z',
      '2025-04-30T09:15:00.000Z',
      '2025-05-31T09:15:00.000Z',
      '2025-06-30T09:15:00.000Z',
      '2025-07-31T09:15:00.000Z',
      '2025-08-31T09:15:00.000Z',
      '2025-09-30T09:15:00.000Z',
      '2025-10-31T09:15:00.000Z',
      '2025-11-30T09:15:00.000Z',
      '2025-12-31T09:15:00.000Z',
      '2026-01-31T09:15:00.000Z',
    ]);
  });

  it('gives February 29 in a leap year', () => {
    const anchor = utc('2024-01-31T00:00:00.000Z');
    expect(iso(addInterval(anchor, 'monthly', 1))).toBe('2024-02-29T00:00:00.000Z');
    expect(iso(addInterval(anchor, 'monthly', 2))).toBe('2024-03-31T00:00:00.000Z');
    expect(iso(addInterval(anchor, 'monthly', 13))).toBe('2025-02-28T00:00:00.000Z');
  });

  it('keeps a Feb 29 anchor on the 29th where it can', () => {
    const anchor = utc('2024-02-29T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'monthly', 1))).toBe('2024-03-29T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'monthly', 12))).toBe('2025-02-28T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'monthly', 13))).toBe('2025-03-29T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'monthly', 48))).toBe('2028-02-29T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'yearly', 1))).toBe('2025-02-28T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'yearly', 2))).toBe('2026-02-28T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'yearly', 4))).toBe('2028-02-29T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'quarterly', 1))).toBe('2024-05-29T18:00:00.000Z');
    expect(iso(addInterval(anchor, 'quarterly', 4))).toBe('2025-02-28T18:00:00.000Z');
  });

  it('steps three months for quarterly, clamped', () => {
    const anchor = utc('2025-11-30T06:00:00.000Z');
    expect(
      [1, 2, 3, 4, 5].map((n) => iso(cycleDueAt(anchor, 'quarterly', n))),
    ).toEqual(['2025-11-30T06:00:00.000Z', '2026-02-28T06:00:00.000Z', '2026-05-30T06:00:00.000Z', '2026-08-30T06:00:00.000Z', '2026-11-30T06:00:00.000Z']);
    const endOfMonth = utc('2025-08-31T06:00:00.000Z');
    expect(iso(addInterval(endOfMonth, 'quarterly', 1))).toBe('2025-11-30T06:00:00.000Z');
    expect(iso(addInterval(endOfMonth, 'quarterly', 2))).toBe('2026-02-28T06:00:00.000Z');
    expect(iso(addInterval(endOfMonth, 'quarterly', 3))).toBe('2026-05-31T06:00:00.000Z');
  });

  it('steps twelve months for yearly', () => {
    const anchor = utc('2025-07-04T10:00:00.000Z');
    expect(iso(addInterval(anchor, 'yearly', 1))).toBe('2026-07-04T10:00:00.000Z');
    expect(iso(cycleDueAt(anchor, 'yearly', 11))).toBe('2035-07-04T10:00:00.000Z');
  });

  it('refuses a cycle number below 1, a negative or fractional count and an invalid anchor', () => {
    const anchor = utc('2025-01-01T00:00:00.000Z');
    expect(() => cycleDueAt(anchor, 'monthly', 0)).toThrow(RangeError);
    expect(() => addInterval(anchor, 'monthly', -1)).toThrow(RangeError);
    expect(() => addInterval(anchor, 'daily', 1.5)).toThrow(RangeError);
    expect(() => addInterval(new Date(Number.NaN), 'daily', 1)).toThrow(RangeError);
  });

  it('knows the length of every month', () => {
    expect(Array.from({ length: 12 }, (_, m) => daysInMonth(2025, m))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(daysInMonth(2024, 1)).toBe(29);
    expect(daysInMonth(2000, 1)).toBe(29);
    expect(daysInMonth(2100, 1)).toBe(28);
  });
});

const FROM_2020 = Date.UTC(2020, 0, 1);
const TO_2035 = Date.UTC(2035, 11, 31, 23, 59, 59, 999);
const anchorArb = fc.integer({ min: FROM_2020, max: TO_2035 }).map((ms) => new Date(ms));
const intervalArb = fc.constantFrom<Interval>(...INTERVALS);

describe('due time properties', () => {
  it('strictly increase with the cycle number, for every interval and anchor in 2020–2035', () => {
    fc.assert(
      fc.property(anchorArb, intervalArb, fc.integer({ min: 1, max: 400 }), (anchor, interval, number) => {
        const due = cycleDueAt(anchor, interval, number);
        const next = cycleDueAt(anchor, interval, number + 1);
        expect(next.getTime()).toBeGreaterThan(due.getTime());
        // The time of day never moves.
        expect(next.getTime() % 86_400_000).toBe(anchor.getTime() % 86_400_000);
      }),
      { numRuns: 500, seed: 20260601 },
    );
  });

  it('strictly increase along a whole schedule', () => {
    fc.assert(
      fc.property(anchorArb, intervalArb, (anchor, interval) => {
        let previous = -Infinity;
        for (let number = 1; number <= 60; number++) {
          const due = cycleDueAt(anchor, interval, number).getTime();
          expect(due).toBeGreaterThan(previous);
          previous = due;
        }
      }),
      { numRuns: 300, seed: 20260602 },
    );
  });

  it('fall on min(anchor day, month length) in the right month for a monthly schedule', () => {
    fc.assert(
      fc.property(anchorArb, fc.integer({ min: 0, max: 240 }), (anchor, count) => {
        const due = addInterval(anchor, 'monthly', count);
        const months = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + count;
        const year = Math.floor(months / 12);
        const month = months % 12;
        expect(due.getUTCFullYear()).toBe(year);
        expect(due.getUTCMonth()).toBe(month);
        expect(due.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), daysInMonth(year, month)));
        expect(due.getUTCHours()).toBe(anchor.getUTCHours());
        expect(due.getUTCMinutes()).toBe(anchor.getUTCMinutes());
        expect(due.getUTCSeconds()).toBe(anchor.getUTCSeconds());
        expect(due.getUTCMilliseconds()).toBe(anchor.getUTCMilliseconds());
      }),
      { numRuns: 500, seed: 20260603 },
    );
  });
});

// ---------------------------------------------------------------- dunning

describe('dunning', () => {
  const failedAt = utc('2025-05-10T08:00:00.000Z');
  const keep: RetryPolicy = { retryDays: [1, 3, 7], cancelAfterAllRetries: false };
  const cancel: RetryPolicy = { retryDays: [1, 3, 7], cancelAfterAllRetries: true };

  it.each([
    [1, '2025-05-11T08:00:00.000Z'],
    [2, '2025-05-13T08:00:00.000Z'],
    [3, '2025-05-17T08:00:00.000Z'],
  ])('retries attempt %i of a [1, 3, 7] policy at %s', (attempt, retryAt) => {
    const outcome = afterFailedAttempt({ attempt, failedAt, declinedCode: 'insufficient_funds', policy: keep });
    expect(outcome.kind).toBe('retry');
    if (outcome.kind === 'retry') expect(iso(outcome.retryAt)).toBe(retryAt);
  });

  it('gives up after attempt 4 and keeps the subscription unpaid when the policy says so', () => {
    expect(afterFailedAttempt({ attempt: 4, failedAt, declinedCode: 'insufficient_funds', policy: keep })).toEqual({
      kind: 'exhausted',
      cancel: false,
      hardDecline: false,
    });
  });

  it('gives up after attempt 4 and cancels when the policy says so', () => {
    expect(afterFailedAttempt({ attempt: 4, failedAt, declinedCode: null, policy: cancel })).toEqual({
      kind: 'exhausted',
      cancel: true,
      hardDecline: false,
    });
    expect(afterFailedAttempt({ attempt: 5, failedAt, declinedCode: null, policy: cancel })).toMatchObject({ kind: 'exhausted' });
  });

  it('retries a failure without a declined code', () => {
    expect(afterFailedAttempt({ attempt: 1, failedAt, declinedCode: null, policy: keep })).toMatchObject({ kind: 'retry' });
  });

  it.each([...HARD_DECLINES])('never retries the hard decline %s', (code) => {
    expect(afterFailedAttempt({ attempt: 1, failedAt, declinedCode: code, policy: keep })).toEqual({ kind: 'exhausted', cancel: false, hardDecline: true });
    expect(afterFailedAttempt({ attempt: 1, failedAt, declinedCode: code, policy: cancel })).toEqual({ kind: 'exhausted', cancel: true, hardDecline: true });
  });

  it('knows the hard declines, whatever their case', () => {
    expect([...HARD_DECLINES].sort()).toEqual(
      ['card_not_supported', 'expired_card', 'fraud_confirmed', 'invalid_number', 'lost_card', 'pickup_card', 'restricted_card', 'stolen_card'],
    );
    expect(isHardDecline('EXPIRED_CARD')).toBe(true);
    expect(isHardDecline(' stolen_card ')).toBe(true);
    expect(isHardDecline('insufficient_funds')).toBe(false);
    expect(isHardDecline('do_not_honor')).toBe(false);
    expect(isHardDecline(null)).toBe(false);
  });

  it('gives up at once with an empty policy', () => {
    expect(afterFailedAttempt({ attempt: 1, failedAt, declinedCode: null, policy: { retryDays: [], cancelAfterAllRetries: true } })).toEqual({
      kind: 'exhausted',
      cancel: true,
      hardDecline: false,
    });
  });

  it('refuses an attempt number below 1', () => {
    expect(() => afterFailedAttempt({ attempt: 0, failedAt, declinedCode: null, policy: keep })).toThrow(RangeError);
  });

  it('retries in order and never more often than the policy has steps', () => {
    const softCodeArb = fc.constantFrom<string | null>(null, 'insufficient_funds', 'do_not_honor', 'generic_decline', 'issuer_unavailable');
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 10 }),
        fc.boolean(),
        anchorArb,
        fc.array(softCodeArb, { minLength: 11, maxLength: 11 }),
        (retryDays, cancelAfterAllRetries, firstFailure, codes) => {
          const policy: RetryPolicy = { retryDays, cancelAfterAllRetries };
          let failedAt = firstFailure;
          let retries = 0;
          for (let attempt = 1; ; attempt++) {
            const outcome = afterFailedAttempt({ attempt, failedAt, declinedCode: codes[attempt - 1] ?? null, policy });
            if (outcome.kind === 'exhausted') {
              expect(outcome).toEqual({ kind: 'exhausted', cancel: cancelAfterAllRetries, hardDecline: false });
              break;
            }
            expect(outcome.retryAt.getTime()).toBe(failedAt.getTime() + retryDays[attempt - 1]! * 86_400_000);
            expect(outcome.retryAt.getTime()).toBeGreaterThan(failedAt.getTime());
            retries++;
            expect(retries).toBeLessThanOrEqual(retryDays.length);
            failedAt = outcome.retryAt;
          }
          expect(retries).toBe(retryDays.length);
        },
      ),
      { numRuns: 400, seed: 20260604 },
    );
  });

  it('stops retrying at the first hard decline', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 11 }),
        fc.constantFrom(...HARD_DECLINES),
        (retryDays, hardAt, code) => {
          const policy: RetryPolicy = { retryDays, cancelAfterAllRetries: false };
          let retries = 0;
          for (let attempt = 1; ; attempt++) {
            const outcome = afterFailedAttempt({ attempt, failedAt, declinedCode: attempt === hardAt ? code : 'insufficient_funds', policy });
            if (outcome.kind === 'exhausted') {
              expect(outcome.hardDecline).toBe(attempt === hardAt);
              break;
            }
            retries++;
          }
          expect(retries).toBe(Math.min(retryDays.length, hardAt - 1));
        },
      ),
      { numRuns: 300, seed: 20260605 },
    );
  });
});

// ---------------------------------------------------------------- create request

const MERCHANT = '0b9f5a8e-5c2b-4d67-9d2f-7f6a1c3e8b01';
const CUSTOMER = '5e1d2c3b-4a59-4f68-8e77-6d5c4b3a2f10';
const CARD = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const NOW = utc('2025-06-01T12:00:00.000Z');

function validInput(overrides: Partial<NewSubscriptionInput> = {}): NewSubscriptionInput {
  return {
    merchantId: MERCHANT,
    customerId: CUSTOMER,
    name: 'Gold plan',
    items: [
      { name: 'Seat', amount: 1990, quantity: 3 },
      { name: 'Support', amount: 500, quantity: 1 },
    ],
    interval: 'monthly',
    paymentType: 'credit',
    cardId: CARD,
    ...overrides,
  };
}

function violations(input: NewSubscriptionInput): Array<{ field: string; message: string }> {
  const error = thrown(() => parseNewSubscription(input, NOW));
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ kind: 'validation' });
  return (error as AppError).details ?? [];
}

function fieldsOf(input: NewSubscriptionInput): string[] {
  return violations(input).map((v) => v.field);
}

describe('a new subscription', () => {
  it('normalises a valid request, billing from now by default', () => {
    const parsed = parseNewSubscription(
      validInput({
        merchantId: ` ${MERCHANT.toUpperCase()} `,
        customerId: CUSTOMER.toUpperCase(),
        cardId: CARD.toUpperCase(),
        name: '  Gold plan  ',
        items: [{ name: ' Seat ', amount: 1990, quantity: 3 }, { name: 'Support', amount: 500, quantity: 1 }],
        interval: ' Monthly ',
        paymentType: 'CREDIT',
      }),
      NOW,
    );
    expect(parsed).toEqual({
      merchantId: MERCHANT,
      customerId: CUSTOMER,
      name: 'Gold plan',
      items: [{ name: 'Seat', amount: 1990, quantity: 3 }, { name: 'Support', amount: 500, quantity: 1 }],
      amount: 1990 * 3 + 500,
      currency: 'BRL',
      interval: 'monthly',
      cycles: null,
      anchor: NOW,
      startAt: NOW,
      trialEndAt: null,
      cardId: CARD,
      installments: 1,
    });
  });

  it('anchors the schedule at the start when there is no trial', () => {
    const startAt = utc('2025-07-01T00:00:00.000Z');
    const parsed = parseNewSubscription(validInput({ startAt, cycles: 12, installments: 3, currency: 'usd', interval: 'yearly' }), NOW);
    expect(parsed).toMatchObject({ anchor: startAt, startAt, trialEndAt: null, cycles: 12, installments: 3, currency: 'USD', interval: 'yearly' });
  });

  it('anchors the schedule at the end of the trial when there is one', () => {
    const trialEndAt = utc('2025-06-15T12:00:00.000Z');
    expect(parseNewSubscription(validInput({ trialEndAt }), NOW)).toMatchObject({ anchor: trialEndAt, trialEndAt, startAt: NOW });
    const startAt = utc('2025-06-05T00:00:00.000Z');
    expect(parseNewSubscription(validInput({ trialEndAt, startAt }), NOW)).toMatchObject({ anchor: trialEndAt, trialEndAt, startAt });
  });

  it('accepts a start up to 5 minutes in the past (clock skew)', () => {
    const startAt = new Date(NOW.getTime() - 5 * 60_000);
    expect(parseNewSubscription(validInput({ startAt }), NOW).anchor).toEqual(startAt);
    expect(fieldsOf(validInput({ startAt: new Date(startAt.getTime() - 1) }))).toEqual(['recurrence.startAt']);
  });

  it('takes 0 installments as "not given" and the limits as they are', () => {
    expect(parseNewSubscription(validInput({ installments: 0 }), NOW).installments).toBe(1);
    expect(parseNewSubscription(validInput({ installments: 12 }), NOW).installments).toBe(12);
    expect(parseNewSubscription(validInput({ cycles: 1 }), NOW).cycles).toBe(1);
    expect(parseNewSubscription(validInput({ cycles: 10_000 }), NOW).cycles).toBe(10_000);
    expect(parseNewSubscription(validInput({ name: 'n'.repeat(200) }), NOW).name).toHaveLength(200);
    expect(parseNewSubscription(validInput({ items: [{ name: 'Free', amount: 0, quantity: 1 }, { name: 'Paid', amount: 1, quantity: 1 }] }), NOW).amount).toBe(1);
    expect(parseNewSubscription(validInput({ items: [{ name: 'Max', amount: 1_000_000_000_000, quantity: 1 }] }), NOW).amount).toBe(1_000_000_000_000);
  });

  it.each<[string, Partial<NewSubscriptionInput>]>([
    ['merchantId', { merchantId: 'not-a-uuid' }],
    ['merchantId', { merchantId: '' }],
    ['customerId', { customerId: '1234' }],
    ['customerId', { customerId: '   ' }],
    ['paymentMethod.card.cardId', { cardId: 'card_1' }],
    ['paymentMethod.card.cardId', { cardId: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 'n'.repeat(201) }],
    ['items', { items: [] }],
    ['items', { items: Array.from({ length: 101 }, () => ({ name: 'Seat', amount: 1, quantity: 1 })) }],
    ['items', { items: [{ name: 'Free', amount: 0, quantity: 5 }] }],
    ['items', { items: [{ name: 'Big', amount: 1_000_000_000_000, quantity: 2 }] }],
    ['items', { items: [{ name: 'Big', amount: 600_000_000_000, quantity: 1 }, { name: 'Big too', amount: 400_000_000_001, quantity: 1 }] }],
    ['items.0.name', { items: [{ name: ' ', amount: 100, quantity: 1 }] }],
    ['items.1.name', { items: [{ name: 'Seat', amount: 100, quantity: 1 }, { name: 'x'.repeat(201), amount: 100, quantity: 1 }] }],
    ['items.0.amount', { items: [{ name: 'Seat', amount: -1, quantity: 1 }] }],
    ['items.0.amount', { items: [{ name: 'Seat', amount: 10.5, quantity: 1 }] }],
    ['items.0.amount', { items: [{ name: 'Seat', amount: 1_000_000_000_001, quantity: 1 }] }],
    ['items.0.quantity', { items: [{ name: 'Seat', amount: 100, quantity: 0 }] }],
    ['items.0.quantity', { items: [{ name: 'Seat', amount: 100, quantity: 1.5 }] }],
    ['items.0.quantity', { items: [{ name: 'Seat', amount: 100, quantity: 10_001 }] }],
    ['recurrence.interval', { interval: 'biweekly' }],
    ['recurrence.interval', { interval: '' }],
    ['recurrence.cycles', { cycles: 0 }],
    ['recurrence.cycles', { cycles: 10_001 }],
    ['recurrence.cycles', { cycles: 2.5 }],
    ['recurrence.startAt', { startAt: utc('2025-05-31T12:00:00.000Z') }],
    ['recurrence.startAt', { startAt: new Date(Number.NaN) }],
    ['trial.endAt', { trialEndAt: NOW }],
    ['trial.endAt', { trialEndAt: utc('2025-05-01T00:00:00.000Z') }],
    ['trial.endAt', { trialEndAt: new Date(Number.NaN) }],
    ['paymentMethod.type', { paymentType: 'debit' }],
    ['paymentMethod.type', { paymentType: '' }],
    ['paymentMethod.installments', { installments: 13 }],
    ['paymentMethod.installments', { installments: -1 }],
    ['paymentMethod.installments', { installments: 2.5 }],
    ['currency', { currency: 'BR' }],
    ['currency', { currency: 'REAL' }],
    ['currency', { currency: 'XYZ' }],
  ])('names %s alone when it is broken (%j)', (field, overrides) => {
    expect(fieldsOf(validInput(overrides))).toEqual([field]);
  });

  it('names every broken field at once', () => {
    const fields = fieldsOf({
      merchantId: 'x',
      customerId: 'y',
      name: '',
      items: [
        { name: '', amount: -5, quantity: 0 },
        { name: 'Fine', amount: 100, quantity: 1 },
      ],
      interval: 'hourly',
      cycles: 0,
      startAt: utc('2020-01-01T00:00:00.000Z'),
      trialEndAt: utc('2020-01-01T00:00:00.000Z'),
      paymentType: 'pix',
      cardId: 'z',
      installments: 24,
      currency: '12',
    });
    expect(fields.sort()).toEqual(
      [
        'merchantId',
        'customerId',
        'name',
        'items.0.name',
        'items.0.amount',
        'items.0.quantity',
        'recurrence.interval',
        'recurrence.cycles',
        'recurrence.startAt',
        'trial.endAt',
        'paymentMethod.type',
        'paymentMethod.card.cardId',
        'paymentMethod.installments',
        'currency',
      ].sort(),
    );
  });

  it('does not judge the total of items that are themselves broken', () => {
    expect(fieldsOf(validInput({ items: [{ name: 'Seat', amount: -1, quantity: 1 }] }))).toEqual(['items.0.amount']);
  });
});

describe('items of a replace', () => {
  it('sums valid items', () => {
    expect(parseItems([{ name: ' A ', amount: 250, quantity: 4 }, { name: 'B', amount: 0, quantity: 2 }])).toEqual({
      items: [{ name: 'A', amount: 250, quantity: 4 }, { name: 'B', amount: 0, quantity: 2 }],
      amount: 1000,
    });
  });

  it('throws one validation error naming each broken item field under the given prefix', () => {
    const error = thrown(() => parseItems([{ name: '', amount: 100, quantity: 1 }, { name: 'B', amount: 1, quantity: 0 }], 'changes.items'));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ kind: 'validation' });
    expect((error as AppError).details?.map((d) => d.field)).toEqual(['changes.items.0.name', 'changes.items.1.quantity']);
  });

  it('refuses an empty list and a zero total under the list field', () => {
    expect((thrown(() => parseItems([])) as AppError).details?.map((d) => d.field)).toEqual(['items']);
    expect((thrown(() => parseItems([{ name: 'A', amount: 0, quantity: 1 }])) as AppError).details?.map((d) => d.field)).toEqual(['items']);
  });

  it('adds to the given problems instead of throwing', () => {
    const problems = [{ field: 'name', message: 'is required' }];
    const result = parseItems([{ name: 'A', amount: -1, quantity: 1 }], 'items', problems);
    expect(result.items).toHaveLength(1);
    expect(problems.map((p) => p.field)).toEqual(['name', 'items.0.amount']);
  });
});
