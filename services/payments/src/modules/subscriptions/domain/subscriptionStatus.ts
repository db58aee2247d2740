import { errors } from '@platform/kit';

/**
 * The status table of a subscription and of its cycles: the statuses, the events that move a subscription and
 * every move a cycle may make. Plain functions: the store, the jobs and the handlers apply them.
 */

export const SUBSCRIPTION_STATUSES = ['created', 'trialing', 'active', 'paused', 'unpaid', 'canceled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const CYCLE_STATUSES = ['scheduled', 'pending', 'authorized', 'failed', 'retrying', 'canceled'] as const;
export type CycleStatus = (typeof CYCLE_STATUSES)[number];

export function isSubscriptionStatus(value: string): value is SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(value);
}

export function isCycleStatus(value: string): value is CycleStatus {
  return (CYCLE_STATUSES as readonly string[]).includes(value);
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
