import type { ParsedSplitRule } from '@platform/api-model';
import { errors, isUuid, type FieldViolation } from '@platform/kit';
import { isCurrencyCode } from '../../../domain/newCharge';
import { nonEmpty } from '../../../domain/values';

/**
 * The rules of a subscription: a charge per cycle on a saved card of a customer. What moves a subscription and its
 * cycles between statuses, when each cycle falls due, what follows a failed attempt (dunning) and what a valid create
 * request is. Plain functions: the store, the jobs and the handlers apply them.
 */

// ---------------------------------------------------------------- statuses

export const SUBSCRIPTION_STATUSES = ['created', 'trialing', 'active', 'paused', 'unpaid', 'canceled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const CYCLE_STATUSES = ['scheduled', 'pending', 'authorized', 'failed', 'retrying', 'canceled'] as const;
export type CycleStatus = (typeof CYCLE_STATUSES)[number];

export const INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Interval = (typeof INTERVALS)[number];

export function isSubscriptionStatus(value: string): value is SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(value);
}

export function isCycleStatus(value: string): value is CycleStatus {
  return (CYCLE_STATUSES as readonly string[]).includes(value);
}

export function isInterval(value: string): value is Interval {
  return (INTERVALS as readonly string[]).includes(value);
}

/**
 * What moves a subscription:
 * - `cycle_paid`, `cycle_failed`: the outcome of an attempt to bill a cycle;
 * - `retries_exhausted_cancel`, `retries_exhausted_keep`: a failed cycle has no retry left (or was declined for
 *   good), and the client's settings cancel the subscription or keep it unpaid;
 * - `cycles_reached`: the last of the subscription's `cycles` was billed;
 * - `pause`, `resume`, `cancel`: the client's requests;
 * - `trial_started`: a subscription created with a trial enters it.
 */
export const SUBSCRIPTION_EVENTS = [
  'cycle_paid',
  'cycle_failed',
  'retries_exhausted_cancel',
  'retries_exhausted_keep',
  'cycles_reached',
  'pause',
  'resume',
  'cancel',
  'trial_started',
] as const;
export type SubscriptionEvent = (typeof SUBSCRIPTION_EVENTS)[number];

/**
 * Every move a subscription may make, and the status it ends in. Anything not listed is refused with
 * `subscription_status_transition_not_allowed`. `resume` is the one move whose outcome is not fixed: a paused
 * subscription goes back to the status it had when it was paused (see `resumedStatus`), so it is not in the table;
 * `isSubscriptionEventAllowed` answers for it too. Canceled and expired are final.
 */
export const SUBSCRIPTION_TRANSITIONS: Readonly<Record<SubscriptionStatus, Partial<Record<SubscriptionEvent, SubscriptionStatus>>>> = {
  created: {
    trial_started: 'trialing',
    cycle_paid: 'active',
    cycle_failed: 'unpaid',
    pause: 'paused',
    cancel: 'canceled',
  },
  trialing: {
    cycle_paid: 'active',
    cycle_failed: 'unpaid',
    pause: 'paused',
    cancel: 'canceled',
  },
  active: {
    cycle_paid: 'active',
    cycle_failed: 'unpaid',
    cycles_reached: 'expired',
    pause: 'paused',
    cancel: 'canceled',
  },
  unpaid: {
    cycle_paid: 'active',
    cycle_failed: 'unpaid',
    retries_exhausted_cancel: 'canceled',
    retries_exhausted_keep: 'unpaid',
    cycles_reached: 'expired',
    pause: 'paused',
    cancel: 'canceled',
  },
  paused: {
    cancel: 'canceled',
  },
  canceled: {},
  expired: {},
};

/** The statuses a subscription may be paused from, and so may be resumed to. */
export const PAUSABLE_STATUSES: readonly SubscriptionStatus[] = SUBSCRIPTION_STATUSES.filter(
  (status) => SUBSCRIPTION_TRANSITIONS[status].pause !== undefined,
);

/** Whether `event` may happen to a subscription in status `from` (resume: only to a paused one). */
export function isSubscriptionEventAllowed(from: SubscriptionStatus, event: SubscriptionEvent): boolean {
  if (event === 'resume') return from === 'paused';
  return SUBSCRIPTION_TRANSITIONS[from][event] !== undefined;
}

/**
 * The status a paused subscription goes back to on resume, given the status it had when it was paused (kept by
 * the caller). Billing continues from the next due date, so nothing else changes on the way back.
 */
export function resumedStatus(before: SubscriptionStatus): SubscriptionStatus {
  if (!PAUSABLE_STATUSES.includes(before)) {
    throw new Error(`A subscription cannot have been paused from ${before}`);
  }
  return before;
}

/**
 * The status after `event`, or a `subscription_status_transition_not_allowed` refusal. For `resume`, the caller
 * gives the status the subscription had when it was paused as `options.resumeTo`.
 */
export function nextSubscriptionStatus(
  from: SubscriptionStatus,
  event: SubscriptionEvent,
  options?: { resumeTo?: SubscriptionStatus },
): SubscriptionStatus {
  if (!isSubscriptionEventAllowed(from, event)) {
    throw errors.businessRule('subscription_status_transition_not_allowed', `A ${from} subscription cannot ${event}`);
  }
  if (event === 'resume') {
    const resumeTo = options?.resumeTo;
    if (resumeTo === undefined) throw new Error('Resuming a subscription needs the status it was paused from');
    return resumedStatus(resumeTo);
  }
  const to = SUBSCRIPTION_TRANSITIONS[from][event];
  if (to === undefined) throw new Error(`No outcome for ${event} of a ${from} subscription`);
  return to;
}

/**
 * Every move a cycle may make. A cycle is `scheduled` until it falls due, `pending` while an attempt runs,
 * `retrying` between a failed attempt and the next retry; it ends `authorized` (paid), `failed` (no retry left) or
 * `canceled` (the subscription stopped before it was paid).
 */
export const CYCLE_TRANSITIONS: Readonly<Record<CycleStatus, readonly CycleStatus[]>> = {
  scheduled: ['pending', 'canceled'],
  pending: ['authorized', 'failed', 'retrying'],
  retrying: ['pending', 'canceled'],
  authorized: [],
  failed: [],
  canceled: [],
};

export function canCycleMove(from: CycleStatus, to: CycleStatus): boolean {
  return CYCLE_TRANSITIONS[from].includes(to);
}

/** The cycle's new status; an illegal move is a fault of the billing code, never of a request. */
export function nextCycleStatus(from: CycleStatus, to: CycleStatus): CycleStatus {
  if (!canCycleMove(from, to)) throw new Error(`A ${from} subscription cycle cannot become ${to}`);
  return to;
}

// ---------------------------------------------------------------- schedule

const DAY_MS = 86_400_000;

/** Calendar months per step of the monthly intervals. */
const INTERVAL_MONTHS: Readonly<Partial<Record<Interval, number>>> = { monthly: 1, quarterly: 3, yearly: 12 };
/** Days per step of the others. */
const INTERVAL_DAYS: Readonly<Partial<Record<Interval, number>>> = { daily: 1, weekly: 7 };

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (0-based) of `year`, Gregorian. */
export function daysInMonth(year: number, month: number): number {
  return month === 1 && isLeapYear(year) ? 29 : MONTH_DAYS[month] ?? 31;
}

/**
 * The due time of cycle `count` (0-based) of a schedule anchored at `anchor`, in UTC. Always computed from the
 * anchor, never from the previous due time, so a short month does not pull every later cycle earlier: from Jan 31
 * a monthly schedule falls on Feb 28 (29 in leap years), Mar 31, Apr 30... Same time of day as the anchor.
 */
export function addInterval(anchor: Date, interval: Interval, count: number): Date {
  const time = anchor.getTime();
  if (Number.isNaN(time)) throw new RangeError('The schedule anchor is not a valid time');
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`A cycle count must be a whole number from 0, not ${count}`);
  const days = INTERVAL_DAYS[interval];
  if (days !== undefined) return new Date(time + days * count * DAY_MS);
  const months = INTERVAL_MONTHS[interval];
  if (months === undefined) throw new RangeError(`Unknown interval ${String(interval)}`);
  const monthIndex = anchor.getUTCMonth() + months * count;
  const year = anchor.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const due = new Date(time);
  // setUTCFullYear, unlike Date.UTC, takes years below 100 literally.
  due.setUTCFullYear(year, month, day);
  return due;
}

/** The due time of cycle `number` (1-based): the first is due at the anchor. */
export function cycleDueAt(anchor: Date, interval: Interval, number: number): Date {
  if (!Number.isSafeInteger(number) || number < 1) throw new RangeError(`A cycle number must be a whole number from 1, not ${number}`);
  return addInterval(anchor, interval, number - 1);
}

// ---------------------------------------------------------------- dunning

/**
 * Declines that no retry can fix: the card is gone, blocked or not what it claims, so trying it again only adds
 * declines (and card networks fine merchants for retrying them). `pickup_card` is the issuer asking to retain the
 * card (lost, stolen or closed) and `card_not_supported` means the card cannot take this kind of payment at all;
 * neither changes with time, so both are permanent too.
 */
export const HARD_DECLINES: ReadonlySet<string> = new Set([
  'expired_card',
  'lost_card',
  'stolen_card',
  'restricted_card',
  'invalid_number',
  'fraud_confirmed',
  'pickup_card',
  'card_not_supported',
]);

export function isHardDecline(declinedCode: string | null | undefined): boolean {
  const code = declinedCode?.trim().toLowerCase();
  return code !== undefined && HARD_DECLINES.has(code);
}

/**
 * The client's retry policy, as it was when the cycle first failed: `retryDays[n - 1]` is how many days after
 * attempt n the next one runs; when every retry failed, the subscription is canceled or kept unpaid.
 */
export interface RetryPolicy {
  retryDays: number[];
  cancelAfterAllRetries: boolean;
}

export type FailedAttemptOutcome = { kind: 'retry'; retryAt: Date } | { kind: 'exhausted'; cancel: boolean; hardDecline: boolean };

/**
 * What follows a failed attempt (`attempt` is the 1-based number of the attempt that just failed): a retry while
 * the policy has one left, else the cycle is given up and the subscription canceled or kept, as the policy says.
 * A hard decline is never retried.
 */
export function afterFailedAttempt(input: { attempt: number; failedAt: Date; declinedCode: string | null; policy: RetryPolicy }): FailedAttemptOutcome {
  const { attempt, failedAt, declinedCode, policy } = input;
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`An attempt number must be a whole number from 1, not ${attempt}`);
  const cancel = policy.cancelAfterAllRetries;
  if (isHardDecline(declinedCode)) return { kind: 'exhausted', cancel, hardDecline: true };
  const days = policy.retryDays[attempt - 1];
  if (days === undefined) return { kind: 'exhausted', cancel, hardDecline: false };
  if (!Number.isFinite(days) || days < 0) throw new RangeError(`A retry policy step must be a number of days, not ${days}`);
  const failedTime = failedAt.getTime();
  if (Number.isNaN(failedTime)) throw new RangeError('The failed attempt has no valid time');
  return { kind: 'retry', retryAt: new Date(failedTime + days * DAY_MS) };
}

// ---------------------------------------------------------------- create request

export const SUBSCRIPTION_LIMITS = {
  nameMaxLength: 200,
  maxItems: 100,
  itemNameMaxLength: 200,
  itemAmountMax: 1_000_000_000_000,
  itemQuantityMax: 10_000,
  /** What one cycle bills, in minor units. */
  amountMin: 1,
  amountMax: 1_000_000_000_000,
  cyclesMax: 10_000,
  maxInstallments: 12,
  /** How far in the past a start may be: the clocks of the client and ours differ a little. */
  startAtToleranceMs: 5 * 60_000,
} as const;

export interface SubscriptionItem {
  name: string;
  /** Minor units, per unit. */
  amount: number;
  quantity: number;
}

/** A create request as the transport hands it over: text not given is empty or absent, nothing is checked yet. */
export interface NewSubscriptionInput {
  merchantId: string;
  customerId: string;
  name: string;
  items: Array<{ name: string; amount: number; quantity: number }>;
  interval: string;
  cycles?: number;
  startAt?: Date;
  trialEndAt?: Date;
  paymentType: string;
  cardId: string;
  installments?: number;
  currency?: string;
}

export interface NewSubscription {
  merchantId: string;
  customerId: string;
  name: string;
  items: SubscriptionItem[];
  /** The items' total: what each cycle bills. */
  amount: number;
  currency: string;
  interval: Interval;
  /** How many cycles are billed; null: no end. */
  cycles: number | null;
  /** Cycle n is due at anchor + (n − 1) intervals: the trial's end when there is one, else the start. */
  anchor: Date;
  /** The start the client asked for, else now. */
  startAt: Date;
  trialEndAt: Date | null;
  cardId: string;
  installments: number;
}

/** Characters as a person counts them (and PostgreSQL does), not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

/**
 * Checks a list of items and sums it; the fields are named `<field>`, `<field>.N.name`, `<field>.N.amount` and
 * `<field>.N.quantity`. Broken fields go to `problems` when it is given (to be reported with the rest of a
 * request); without it they are thrown as one validation error.
 */
export function parseItems(
  items: ReadonlyArray<{ name: string; amount: number; quantity: number }> | undefined,
  field = 'items',
  problems?: FieldViolation[],
): { items: SubscriptionItem[]; amount: number } {
  const found: FieldViolation[] = [];
  const list = Array.isArray(items) ? items : [];
  const parsed: SubscriptionItem[] = [];
  const { maxItems, itemNameMaxLength, itemAmountMax, itemQuantityMax, amountMin, amountMax } = SUBSCRIPTION_LIMITS;
  if (list.length < 1 || list.length > maxItems) found.push({ field, message: `must have from 1 to ${maxItems} items` });
  let amount = 0;
  let summable = true;
  list.slice(0, maxItems).forEach((item, i) => {
    const name = (typeof item?.name === 'string' ? item.name : '').trim();
    if (length(name) < 1 || length(name) > itemNameMaxLength) {
      found.push({ field: `${field}.${i}.name`, message: `must have from 1 to ${itemNameMaxLength} characters` });
    }
    const unitAmount = item?.amount;
    if (!Number.isSafeInteger(unitAmount) || unitAmount < 0 || unitAmount > itemAmountMax) {
      found.push({ field: `${field}.${i}.amount`, message: `must be a whole number of minor units from 0 to ${itemAmountMax}` });
      summable = false;
    }
    const quantity = item?.quantity;
    if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > itemQuantityMax) {
      found.push({ field: `${field}.${i}.quantity`, message: `must be a whole number from 1 to ${itemQuantityMax}` });
      summable = false;
    }
    // Each product is at most 10^16 and there are at most 100: a total past the maximum is recognised even where a
    // double rounds it, and a total within it is exact.
    if (summable) amount += unitAmount * quantity;
    parsed.push({ name, amount: unitAmount, quantity });
  });
  if (summable && list.length >= 1 && list.length <= maxItems && (amount < amountMin || amount > amountMax)) {
    found.push({ field, message: `must total from ${amountMin} to ${amountMax} minor units per cycle` });
  }
  if (problems) problems.push(...found);
  else if (found.length > 0) throw errors.validation('Invalid subscription items', found);
  return { items: parsed, amount };
}

/** A time given by the client: absent, a valid Date, or invalid (reported). */
function optionalTime(value: Date | undefined | null, field: string, problems: FieldViolation[]): Date | null | 'invalid' {
  if (value === undefined || value === null) return null;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    problems.push({ field, message: 'must be a valid time' });
    return 'invalid';
  }
  return value;
}

/** Validates and normalises a create request; every broken field is named at once. */
export function parseNewSubscription(input: NewSubscriptionInput, now: Date): NewSubscription {
  const problems: FieldViolation[] = [];
  const { nameMaxLength, cyclesMax, maxInstallments, startAtToleranceMs } = SUBSCRIPTION_LIMITS;

  const merchantId = (nonEmpty(input.merchantId) ?? '').toLowerCase();
  if (!isUuid(merchantId)) problems.push({ field: 'merchantId', message: 'must be a UUID' });
  const customerId = (nonEmpty(input.customerId) ?? '').toLowerCase();
  if (!isUuid(customerId)) problems.push({ field: 'customerId', message: 'must be a UUID' });
  const name = nonEmpty(input.name) ?? '';
  if (length(name) < 1 || length(name) > nameMaxLength) problems.push({ field: 'name', message: `must have from 1 to ${nameMaxLength} characters` });

  const { items, amount } = parseItems(input.items, 'items', problems);

  const rawInterval = (nonEmpty(input.interval) ?? '').toLowerCase();
  let interval: Interval = 'monthly';
  if (isInterval(rawInterval)) interval = rawInterval;
  else problems.push({ field: 'recurrence.interval', message: `must be one of ${INTERVALS.join(', ')}` });

  // proto3 `optional`: absent is no end; a given 0 is a broken value, not "absent".
  const cycles = input.cycles ?? null;
  if (cycles !== null && (!Number.isSafeInteger(cycles) || cycles < 1 || cycles > cyclesMax)) {
    problems.push({ field: 'recurrence.cycles', message: `must be a whole number from 1 to ${cyclesMax}` });
  }

  const startAt = optionalTime(input.startAt, 'recurrence.startAt', problems);
  if (startAt instanceof Date && startAt.getTime() < now.getTime() - startAtToleranceMs) {
    problems.push({ field: 'recurrence.startAt', message: 'must not be in the past' });
  }
  const trialEndAt = optionalTime(input.trialEndAt, 'trial.endAt', problems);
  if (trialEndAt instanceof Date && trialEndAt.getTime() <= now.getTime()) {
    problems.push({ field: 'trial.endAt', message: 'must be in the future' });
  }

  const paymentType = (nonEmpty(input.paymentType) ?? '').toLowerCase();
  if (paymentType !== 'credit') problems.push({ field: 'paymentMethod.type', message: 'must be credit' });
  const cardId = (nonEmpty(input.cardId) ?? '').toLowerCase();
  if (!isUuid(cardId)) problems.push({ field: 'paymentMethod.card.cardId', message: 'must be a UUID' });
  // proto3 sends 0 for "not given".
  const installments = input.installments || 1;
  if (!Number.isSafeInteger(installments) || installments < 1 || installments > maxInstallments) {
    problems.push({ field: 'paymentMethod.installments', message: `must be from 1 to ${maxInstallments}` });
  }
  const currency = (nonEmpty(input.currency) ?? 'BRL').toUpperCase();
  if (!isCurrencyCode(currency)) problems.push({ field: 'currency', message: 'must be an ISO 4217 currency code (3 letters)' });

  if (problems.length > 0) throw errors.validation('Invalid subscription', problems);

  const start = startAt instanceof Date ? new Date(startAt.getTime()) : new Date(now.getTime());
  const trialEnd = trialEndAt instanceof Date ? new Date(trialEndAt.getTime()) : null;
  return {
    merchantId,
    customerId,
    name,
    items,
    amount,
    currency,
    interval,
    cycles,
    anchor: new Date((trialEnd ?? start).getTime()),
    startAt: start,
    trialEndAt: trialEnd,
    cardId,
    installments,
  };
}

/** A subscription as it is stored and shown (the wire's `Subscription`). */
export interface SubscriptionItem {
  name: string;
  amount: number;
  quantity: number;
}

export type SubscriptionSplitRule = ParsedSplitRule;

export interface SubscriptionRecord {
  id: string;
  clientId: string;
  merchantId: string;
  customerId: string;
  cardId: string;
  name: string;
  items: SubscriptionItem[];
  amount: number;
  currency: string;
  interval: string;
  cycles: number | null;
  anchor: Date;
  startAt: Date;
  trialEndAt: Date | null;
  installments: number;
  splitRules: SubscriptionSplitRule[];
  status: string;
  pausedFrom: string | null;
  nextCycle: number;
  cyclesBilled: number;
  createdAt: Date;
  updatedAt: Date;
  canceledAt: Date | null;
  pausedAt: Date | null;
}

export interface CycleAttempt {
  attempt: number;
  chargeId: string | null;
  status: 'authorized' | 'failed';
  declinedCode: string | null;
  attemptedAt: Date;
}

export interface CycleRecord {
  id: string;
  clientId: string;
  subscriptionId: string;
  number: number;
  status: string;
  amount: number;
  dueAt: Date;
  nextAttemptAt: Date | null;
  retryDays: number[] | null;
  cancelAfterAllRetries: boolean | null;
  attempts: CycleAttempt[];
  createdAt: Date;
  updatedAt: Date;
}
