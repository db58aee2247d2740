import type { Queryable } from '@platform/kit';
import { paymentVoidedEntry } from '../domain/history';
import { nextStatus, type Session } from '../domain/session';
import { SESSION_EVENTS } from '../events/sessionEvents';
import type { ChargeHold } from '../store/sessionStore';
import type { SessionDeps } from './deps';
import { countLostOutcome, PAID_STATUSES, RELEASED_STATUSES, responseOf, settlePaid, settleReleased } from './paymentAccounting';
import { addHistory, emitSessionEvent } from './sessionChanges';
import { loadSession } from './sessionView';

/** The part of a `payments.charge.*` event's data sessions reads. */
export interface ChargeEventData {
  id: string;
  sessionId: string | null;
  status: string;
  amount: number;
  paymentMethod: { paymentType: string } | null;
}

/**
 * A later outcome of a session's charge (Pix or boleto paid, expired, failed, voided), applied once: the charge's
 * row moves from `pending` in the same statement that decides it, so a replay or the synchronous path that already
 * settled it changes nothing. A paid charge of a 1:1 session voided later (a pre-authorization voided, a full
 * refund) makes the paid session `voided`.
 */
export async function applyChargeEvent(deps: SessionDeps, tx: Queryable, clientId: string, data: ChargeEventData): Promise<void> {
  if (!data.sessionId) return;
  const link = await deps.store.findChargeSession(tx, clientId, data.id);
  if (link?.state === 'paid' && data.status === 'voided') {
    await voidPaidCharge(deps, tx, clientId, link.sessionId, data);
    return;
  }
  const now = deps.clock.now();
  if (!link) {
    await noteCharge(deps, tx, clientId, data.sessionId, data, now);
    return;
  }
  if (link.state !== 'pending') return;
  const response = responseOf({ id: data.id, status: data.status, amount: data.amount, paymentMethod: data.paymentMethod ?? undefined });
  if (PAID_STATUSES.has(data.status)) {
    if (!(await deps.store.moveCharge(tx, clientId, data.id, 'pending', 'paid', now))) return;
    const session = await loadSession(deps, tx, clientId, link.sessionId, true);
    await settlePaid(deps, tx, session, response, now);
  } else if (RELEASED_STATUSES.has(data.status)) {
    if (!(await deps.store.moveCharge(tx, clientId, data.id, 'pending', 'released', now))) return;
    const session = await loadSession(deps, tx, clientId, link.sessionId, true);
    await settleReleased(deps, tx, session, response, 'paymentExpired', now);
  }
}

/**
 * The final outcome of a session's charge that no answer has linked yet: the event came first, or the attempt that
 * made the charge never got its answer. It is noted uncounted: the answer counts it with its attempt's place, or the
 * sweep does. A pending charge waits for its answer, or for its outcome's event.
 */
async function noteCharge(deps: SessionDeps, tx: Queryable, clientId: string, sessionId: string, data: ChargeEventData, now: Date): Promise<void> {
  const state: ChargeHold | null = PAID_STATUSES.has(data.status) ? 'paid' : RELEASED_STATUSES.has(data.status) ? 'released' : null;
  if (!state) return;
  // Locked like the answer's transaction locks it, so the two never interleave.
  const session = await deps.store.findById(tx, clientId, sessionId, { forUpdate: true });
  if (!session) return;
  if (!(await deps.store.noteOutcome(tx, { chargeId: data.id, sessionId, clientId, state }, now))) return;
  // The charge of an attempt that got no answer: its place is settled now that the outcome is known.
  await countLostOutcome(deps, tx, session, now);
}

/**
 * The void of a charge that paid a 1:1 session: the session goes `paid` → `voided` (the status table), once (the
 * charge's row leaves `paid` in the statement that decides it). A 1:N session keeps its count: a payment voided
 * after it was counted does not give its place back.
 */
async function voidPaidCharge(deps: SessionDeps, tx: Queryable, clientId: string, sessionId: string, data: ChargeEventData): Promise<void> {
  const session = await loadSession(deps, tx, clientId, sessionId, true);
  if (session.maxPayments !== null || session.status !== 'paid') return;
  const status = nextStatus(session.status, 'void');
  if (!status) return;
  const now = deps.clock.now();
  if (!(await deps.store.moveCharge(tx, clientId, data.id, 'paid', 'released', now))) return;
  const voided: Session = { ...session, status, updatedAt: now };
  await deps.store.update(tx, voided);
  const response = responseOf({ id: data.id, status: data.status, amount: data.amount, paymentMethod: data.paymentMethod ?? undefined });
  await addHistory(deps, tx, voided, paymentVoidedEntry(session, voided, response), now);
  await emitSessionEvent(deps, tx, SESSION_EVENTS.updated, voided, now);
}
