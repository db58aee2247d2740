import { cancelJobs, type Queryable } from '@platform/kit';
import { expiredByMaxPaymentsEntry, paymentEntry, type ChargeResponse } from '../domain/history';
import { nextStatus, UNLIMITED, type Session } from '../domain/session';
import { SESSION_EVENTS } from '../events/sessionEvents';
import type { ChargeHold, Counters } from '../store/sessionStore';
import { DUE_DATE_JOB, type SessionDeps } from './deps';
import { addHistory, emitSessionEvent } from './sessionChanges';

/*
 * The accounting of a session's payments, shared by the charge's answer (chargeSession), its later events
 * (applyChargeEvent) and the sweep (releaseStalePlaces): how an outcome moves the session's counters, status and
 * history.
 */

export const PAID_STATUSES = new Set(['authorized', 'pre_authorized']);
export const RELEASED_STATUSES = new Set(['failed', 'canceled', 'voided', 'expired']);

function withCounters(session: Session, counters: Counters): Session {
  return { ...session, paymentCount: counters.paymentCount, pendingCount: counters.pendingCount, isActive: counters.isActive };
}

/** The answer about a charge that exists. */
export type ChargeAnswer = ChargeResponse & { chargeId: string };

export function responseOf(charge: { id: string; status: string; amount: number; paymentMethod?: { paymentType: string } }): ChargeAnswer {
  return { chargeId: charge.id, status: charge.status, amount: charge.amount, paymentType: charge.paymentMethod?.paymentType ?? '' };
}

/**
 * A pending place became a payment: counts it, closes a 1:1 session (`paid`) and disables a 1:N session that reached
 * its maximum (`sessionExpiredByMaxPayments`).
 */
export async function settlePaid(deps: SessionDeps, tx: Queryable, before: Session, response: ChargeAnswer, now: Date, heldPlace = true): Promise<void> {
  const counters = heldPlace
    ? await deps.store.settlePlace(tx, before.clientId, before.id, 'paid', now)
    : await deps.store.countWithoutPlace(tx, before.clientId, before.id, 'counted', now);
  if (!counters) {
    // A charge made while its attempt held no place any more, on a session that is full since: the money was taken,
    // so the item is kept, but the count never goes past the limit. The merchant refunds it.
    deps.log.error({ sessionId: before.id, chargeId: response.chargeId }, 'a session charge was paid beyond the session limit');
    await addHistory(deps, tx, before, paymentEntry('paymentSucceeded', before, before, response), now);
    return;
  }
  let after = withCounters({ ...before, updatedAt: now }, counters);
  if (before.maxPayments === null) {
    after = { ...after, status: nextStatus(before.status, 'pay') ?? before.status };
    await deps.store.update(tx, after);
  }
  const recorded = await addHistory(deps, tx, after, paymentEntry('paymentSucceeded', before, after, response), now);
  if (!recorded) return;
  if (before.maxPayments === null) {
    await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: before.id });
    // A session canceled while its charge was in flight stays canceled: it counts the payment, it is not paid.
    await emitSessionEvent(deps, tx, after.status === 'paid' && before.status !== 'paid' ? SESSION_EVENTS.paid : SESSION_EVENTS.updated, after, now);
    return;
  }
  await emitSessionEvent(deps, tx, SESSION_EVENTS.updated, after, now);
  if (after.maxPayments !== UNLIMITED && after.maxPayments !== null && after.paymentCount >= after.maxPayments && after.isActive) {
    const disabled: Session = { ...after, isActive: false };
    await deps.store.update(tx, disabled);
    await addHistory(deps, tx, disabled, expiredByMaxPaymentsEntry(disabled, response.chargeId), now);
    await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: before.id });
    await emitSessionEvent(deps, tx, SESSION_EVENTS.disabled, disabled, now);
  }
}

/** A pending place given back: the charge failed, expired or was voided before it was paid. */
export async function settleReleased(
  deps: SessionDeps,
  tx: Queryable,
  before: Session,
  response: ChargeResponse,
  kind: 'paymentExpired' | 'paymentFailed',
  now: Date,
  heldPlace = true,
): Promise<void> {
  const after = heldPlace ? withCounters({ ...before, updatedAt: now }, await deps.store.settlePlace(tx, before.clientId, before.id, 'released', now)) : before;
  await addHistory(deps, tx, after, paymentEntry(kind, before, after, response), now);
}

/** Counts a charge's outcome on its session, with the place its attempt held or (heldPlace false) without one. */
export async function countOutcome(deps: SessionDeps, tx: Queryable, current: Session, state: ChargeHold, response: ChargeAnswer, now: Date, heldPlace: boolean): Promise<void> {
  if (state === 'paid') {
    await settlePaid(deps, tx, current, response, now, heldPlace);
  } else if (state === 'pending') {
    // The place passes from the attempt to the charge, until its events settle it.
    const counters = heldPlace ? null : await deps.store.countWithoutPlace(tx, current.clientId, current.id, 'held', now);
    const holding = counters ? withCounters(current, counters) : current;
    await addHistory(deps, tx, holding, paymentEntry('paymentPending', holding, holding, response), now);
  } else {
    await settleReleased(deps, tx, current, response, 'paymentFailed', now, heldPlace);
  }
}

/**
 * Pairs an outcome noted from its charge's event, not counted yet, with the place of an attempt whose answer was
 * lost, under the session's row lock: the place becomes a payment or is given back now, not at the sweep.
 */
export async function countLostOutcome(deps: SessionDeps, tx: Queryable, current: Session, now: Date): Promise<void> {
  if (!(await deps.store.hasUncounted(tx, current.clientId, current.id))) return;
  if (!(await deps.store.takeLostPlace(tx, current.clientId, current.id, now))) return;
  const outcome = await deps.store.takeUncounted(tx, current.clientId, current.id, now);
  if (outcome) await countOutcome(deps, tx, current, outcome.state, noted(current, outcome), now, true);
  else await settleReleased(deps, tx, current, { status: 'error', amount: current.amount, paymentType: '' }, 'paymentFailed', now);
}

/** The answer recorded for an outcome its event noted: the charge, and what the event said of it. */
export function noted(session: Session, outcome: { chargeId: string; state: ChargeHold }): ChargeAnswer {
  return { chargeId: outcome.chargeId, status: outcome.state === 'paid' ? 'authorized' : 'failed', amount: session.amount, paymentType: '' };
}
