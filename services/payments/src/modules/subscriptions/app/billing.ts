import { randomUUID } from 'node:crypto';
import { SUBSCRIPTION_SETTINGS_LIMITS } from '@platform/api-model';
import { AppError, errors, instanceKeyOf, isUuid, requireClientId, withTransaction, type Queryable } from '@platform/kit';
import { nextSubscriptionStatus, type SubscriptionEvent, type SubscriptionStatus } from '../domain/subscriptionStatus';
import { cycleDueAt, type Interval } from '../domain/calendar';
import { afterFailedAttempt, type RetryPolicy } from '../domain/dunning';
import type { CycleRecord, SubscriptionRecord } from '../domain/subscription';
import { recordCycleEvent, recordSubscriptionEvent, SUBSCRIPTION_EVENTS } from '../events/subscriptionEvents';
import type { SubscriptionStore } from '../store/subscriptionStore';
import { createCharge } from '../../charges/app/createCharge';
import type { SubscriptionDeps } from './deps';
import { getSubscription, openCycle, scheduleAttempt, type SubscriptionView } from './subscriptions';

/** The idempotency key of a cycle's charge: the cycle's id for its first attempt, then one per retry. */
export function cycleChargeKey(cycleId: string, attempt: number): string {
  return attempt === 1 ? cycleId : `${cycleId}:retry:${attempt - 1}`;
}

const FINAL: ReadonlySet<string> = new Set(['canceled', 'expired']);

/** A status change of the table, or the same status when the subscription moved on meanwhile (canceled, say). */
function stepped(status: string, event: SubscriptionEvent): string {
  if (FINAL.has(status) || status === 'paused') return status;
  return nextSubscriptionStatus(status as SubscriptionStatus, event);
}

/**
 * The cycle and its subscription, both locked, the subscription first (the order every change of a subscription and
 * its cycles takes). The cycle is read once its subscription's lock is held, so its attempts are the committed ones:
 * read in the statement that waited for the cycle's lock, they would be those of the statement's start, and a
 * second runner would add an attempt the first one had just written.
 */
async function lockCycle(store: SubscriptionStore, tx: Queryable, clientId: string, cycleId: string): Promise<{ cycle: CycleRecord; subscription: SubscriptionRecord } | undefined> {
  const seen = await store.findCycle(tx, clientId, cycleId);
  if (!seen) return undefined;
  const subscription = await store.find(tx, clientId, seen.subscriptionId, { forUpdate: true });
  const cycle = await store.findCycle(tx, clientId, cycleId, { forUpdate: true });
  return subscription && cycle ? { cycle, subscription } : undefined;
}

type Outcome = { status: 'authorized'; chargeId: string } | { status: 'failed'; chargeId: string | null; declinedCode: string | null };

/**
 * One attempt at a cycle, as of `asOf`: the cycle is due and this attempt not made yet, else nothing happens (a job
 * that comes late, twice, or after `advance` did the work). The charge is made with no transaction open, under the
 * attempt's idempotency key, so a crash or a second runner between the charge and its record makes the same charge,
 * never another. Its outcome is then written once, under the cycle's row lock.
 */
export async function billCycle(deps: SubscriptionDeps, input: { clientId: string; cycleId: string; attempt?: number; asOf: Date }): Promise<void> {
  const clientId = requireClientId(input.clientId);
  const prepared = await withTransaction(deps.pool, async (tx) => {
    const locked = isUuid(input.cycleId) ? await lockCycle(deps.subscriptions, tx, clientId, input.cycleId) : undefined;
    if (!locked) return undefined;
    const { cycle, subscription } = locked;
    if (cycle.nextAttemptAt === null || cycle.nextAttemptAt.getTime() > input.asOf.getTime()) return undefined;
    const attempt = cycle.attempts.length + 1;
    if (input.attempt !== undefined && input.attempt !== attempt) return undefined;
    if (subscription.status === 'paused' || FINAL.has(subscription.status)) {
      // Nothing is billed while paused or after the end: the cycle is missed.
      await deps.subscriptions.updateCycle(tx, { ...cycle, status: 'canceled', nextAttemptAt: null, updatedAt: input.asOf });
      return undefined;
    }
    if (cycle.status !== 'pending') await deps.subscriptions.updateCycle(tx, { ...cycle, status: 'pending', updatedAt: input.asOf });
    return { cycle, subscription, attempt };
  });
  if (!prepared) return;
  const { cycle, subscription, attempt } = prepared;
  const settings = await deps.settings.settingsOf(clientId);
  const outcome = await charge(deps, subscription, cycle, attempt, settings.statementDescriptor);
  const policy: RetryPolicy =
    cycle.retryDays !== null ? { retryDays: cycle.retryDays, cancelAfterAllRetries: cycle.cancelAfterAllRetries ?? false } : { retryDays: settings.retryDays, cancelAfterAllRetries: settings.cancelAfterAllRetries };
  await withTransaction(deps.pool, async (tx) => {
    const { cycle: current, subscription: sub } = (await lockCycle(deps.subscriptions, tx, clientId, cycle.id))!;
    if (current.attempts.length >= attempt) return;
    const at = input.asOf;
    await deps.subscriptions.insertAttempt(tx, clientId, cycle.id, {
      attempt,
      chargeId: outcome.chargeId,
      status: outcome.status,
      declinedCode: outcome.status === 'failed' ? outcome.declinedCode : null,
      attemptedAt: at,
    });
    const attempts = [...current.attempts, { attempt, chargeId: outcome.chargeId, status: outcome.status, declinedCode: outcome.status === 'failed' ? outcome.declinedCode : null, attemptedAt: at }];
    if (outcome.status === 'authorized') {
      const paidCycle: CycleRecord = { ...current, attempts, status: 'authorized', nextAttemptAt: null, updatedAt: at };
      await deps.subscriptions.updateCycle(tx, paidCycle);
      const next: SubscriptionRecord = { ...sub, status: stepped(sub.status, 'cycle_paid'), cyclesBilled: sub.cyclesBilled + 1, updatedAt: at };
      await recordCycleEvent(tx, SUBSCRIPTION_EVENTS.cyclePaid, paidCycle, at);
      if (next.status === 'active' && sub.status !== 'active') await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.activated, next, at);
      await afterCycle(deps, tx, next, at);
      return;
    }
    const decision = afterFailedAttempt({ attempt, failedAt: at, declinedCode: outcome.declinedCode, policy });
    const failedCycle: CycleRecord = {
      ...current,
      attempts,
      retryDays: policy.retryDays,
      cancelAfterAllRetries: policy.cancelAfterAllRetries,
      status: decision.kind === 'retry' ? 'retrying' : 'failed',
      nextAttemptAt: decision.kind === 'retry' ? decision.retryAt : null,
      updatedAt: at,
    };
    await deps.subscriptions.updateCycle(tx, failedCycle);
    await recordCycleEvent(tx, SUBSCRIPTION_EVENTS.cycleFailed, failedCycle, at);
    if (decision.kind === 'retry') {
      await scheduleAttempt(tx, failedCycle, attempt + 1, decision.retryAt);
      const next: SubscriptionRecord = { ...sub, status: stepped(sub.status, 'cycle_failed'), updatedAt: at };
      if (next.status !== sub.status) await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.unpaid, next, at);
      await deps.subscriptions.update(tx, next);
      return;
    }
    // Every attempt failed: canceled when the policy says so, else unpaid and the next cycle is still billed.
    const failedStatus = stepped(stepped(sub.status, 'cycle_failed'), decision.cancel ? 'retries_exhausted_cancel' : 'retries_exhausted_keep');
    const next: SubscriptionRecord = { ...sub, status: failedStatus, cyclesBilled: sub.cyclesBilled + 1, updatedAt: at, ...(failedStatus === 'canceled' ? { canceledAt: at } : {}) };
    if (failedStatus === 'canceled') {
      await deps.subscriptions.update(tx, next);
      await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.canceled, next, at);
      return;
    }
    if (next.status !== sub.status) await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.unpaid, next, at);
    await afterCycle(deps, tx, next, at);
  });
  deps.outbox?.kick();
}

/** After a cycle ended (paid, or given up): `expired` when the cycles are all billed, else the next cycle is opened. */
async function afterCycle(deps: SubscriptionDeps, tx: Queryable, subscription: SubscriptionRecord, at: Date): Promise<void> {
  if (subscription.cycles !== null && subscription.cyclesBilled >= subscription.cycles) {
    const expired: SubscriptionRecord = { ...subscription, status: stepped(subscription.status, 'cycles_reached'), updatedAt: at };
    await deps.subscriptions.update(tx, expired);
    await recordSubscriptionEvent(tx, SUBSCRIPTION_EVENTS.expired, expired, at);
    return;
  }
  const next: SubscriptionRecord = { ...subscription, nextCycle: subscription.nextCycle + 1 };
  await deps.subscriptions.update(tx, next);
  if (!FINAL.has(next.status)) await openCycle(deps.subscriptions, tx, next, subscription.nextCycle, at);
}

/** The cycle's charge: the subscription's card, the cycle's amount, the client's statement descriptor. */
async function charge(deps: SubscriptionDeps, subscription: SubscriptionRecord, cycle: CycleRecord, attempt: number, statementDescriptor: string): Promise<Outcome> {
  try {
    const made = await createCharge(
      deps.charges,
      {
        clientId: subscription.clientId,
        merchantId: subscription.merchantId,
        amount: cycle.amount,
        currency: subscription.currency,
        description: `${subscription.name} (cycle ${cycle.number})`,
        ...(statementDescriptor ? { statementDescriptor } : {}),
        capture: true,
        customerId: subscription.customerId,
        paymentMethod: { paymentType: 'credit', installments: subscription.installments },
        paymentSource: { sourceType: 'customer', customerId: subscription.customerId, cardId: subscription.cardId },
        splitRules: subscription.splitRules,
        appInfo: { subscriptionId: subscription.id, cycle: cycle.number },
      },
      cycleChargeKey(cycle.id, attempt),
    );
    if (made.status === 'authorized' || made.status === 'pre_authorized') return { status: 'authorized', chargeId: made.id };
    return { status: 'failed', chargeId: made.id, declinedCode: made.declinedCode ?? null };
  } catch (error) {
    // A card refused before any provider (expired, say), or a card or customer gone: a failed attempt. Anything else
    // (a service or provider unavailable) fails the job, which runs again with the same key.
    if (error instanceof AppError && (error.kind === 'card_declined' || error.kind === 'not_found' || error.kind === 'business_rule' || error.kind === 'validation')) {
      return { status: 'failed', chargeId: null, declinedCode: error.declinedCode ?? error.businessCode ?? error.kind };
    }
    throw error;
  }
}

/** The most cycles one sandbox advance may bill: a `to` further ahead is refused, and the caller advances in steps. */
export const MAX_ADVANCE_CYCLES = 36;

/** A cycle is tried at most once and then once per step of the retry policy (at most 10 steps). */
const MAX_ATTEMPTS_PER_CYCLE = 1 + SUBSCRIPTION_SETTINGS_LIMITS.retryPolicyMaxSteps;

/** A claim on a subscription older than this was left by an advance whose process died: another may take it. */
const ADVANCE_CLAIM_STALE_MS = 5 * 60_000;

/**
 * How many cycles an advance to `to` would bill: those from the one open now whose due date is not after `to`, as
 * far as the subscription's cycles go. Counting stops past `limit`. None for a subscription paused or ended (its open
 * cycle is only canceled).
 */
export function cyclesToBill(subscription: SubscriptionRecord, to: Date, limit: number): number {
  if (subscription.status === 'paused' || FINAL.has(subscription.status)) return 0;
  const first = Math.max(1, subscription.nextCycle - 1);
  const last = subscription.cycles === null ? Number.MAX_SAFE_INTEGER : subscription.cycles;
  let count = 0;
  for (let number = first; number <= last && count <= limit; number += 1) {
    if (cycleDueAt(subscription.anchor, subscription.interval as Interval, number).getTime() > to.getTime()) break;
    count += 1;
  }
  return count;
}

/**
 * Sandbox: every attempt of the subscription due up to `to`, in order, each as of its own time, as if the clock had
 * moved there; cycles opened on the way are billed too when they fall before `to`. Run twice, the second run bills
 * nothing more. One call bills at most MAX_ADVANCE_CYCLES cycles (a further `to` is refused before anything runs),
 * one advance of a subscription runs at a time (a second one meanwhile answers 409), and an advance whose caller is
 * gone (`signal`) stops after the attempt it is making.
 */
export async function advanceSubscription(deps: SubscriptionDeps, input: { clientId: string; id: string; to: Date; signal?: AbortSignal }): Promise<SubscriptionView> {
  const clientId = requireClientId(input.clientId);
  const { subscription } = await getSubscription(deps, { clientId, id: input.id });
  if (Number.isNaN(input.to.getTime())) throw errors.validation('to must be an RFC 3339 date-time', [{ field: 'to', message: 'must be an RFC 3339 date-time' }]);
  const token = randomUUID();
  if (!(await deps.subscriptions.claimAdvance(deps.pool, clientId, subscription.id, token, ADVANCE_CLAIM_STALE_MS, instanceKeyOf(deps.pool)))) {
    throw errors.conflict(`An advance of subscription ${subscription.id} is running; try again when it has finished`, 'subscription_advance_in_progress');
  }
  try {
    // Counted under the claim, on the subscription as it is now (an advance that just finished moved it on).
    const { subscription: current } = await getSubscription(deps, { clientId, id: subscription.id });
    const cycles = cyclesToBill(current, input.to, MAX_ADVANCE_CYCLES);
    if (cycles > MAX_ADVANCE_CYCLES) {
      throw errors.businessRule(
        'advance_too_far',
        `An advance bills at most ${MAX_ADVANCE_CYCLES} cycles; this one would bill more. Advance to an earlier \`to\` in steps`,
      );
    }
    for (let step = 0; step < cycles * MAX_ATTEMPTS_PER_CYCLE; step += 1) {
      const [due] = await deps.subscriptions.dueCycles(deps.pool, clientId, subscription.id, input.to);
      if (!due) break;
      if (input.signal?.aborted) {
        // The caller is gone (it gave up, or its deadline passed): what is billed stays, each attempt whole, and the
        // rest waits for the next advance or its jobs.
        deps.log.warn({ clientId, subscriptionId: subscription.id, attempts: step }, 'sandbox advance stopped: its caller is gone');
        throw errors.unavailable('The caller went away; the advance stopped after its last whole attempt');
      }
      const before = `${due.id}:${due.attempts.length}:${due.status}`;
      await billCycle(deps, { clientId, cycleId: due.id, asOf: due.nextAttemptAt! });
      const after = await deps.subscriptions.findCycle(deps.pool, clientId, due.id);
      if (after && `${after.id}:${after.attempts.length}:${after.status}` === before) {
        throw errors.conflict('A cycle of this subscription is being billed right now; try again in a moment', 'cycle_in_progress');
      }
    }
  } finally {
    await deps.subscriptions.releaseAdvance(deps.pool, clientId, subscription.id, token).catch((err: unknown) => {
      deps.log.warn({ err, subscriptionId: subscription.id }, 'an advance could not release its claim; it lapses by itself');
    });
  }
  return getSubscription(deps, { clientId, id: subscription.id });
}
