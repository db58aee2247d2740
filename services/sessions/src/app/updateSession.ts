import { requireClientId, withTransaction, type Queryable } from '@platform/kit';
import { updatedEntry } from '../domain/history';
import { applyUpdate, type PaymentType, type Session, type SessionUpdate } from '../domain/session';
import { SESSION_EVENTS } from '../events/sessionEvents';
import type { SessionDeps } from './deps';
import { addHistory, emitSessionEvent } from './sessionChanges';
import { scheduleDueDate } from './sessionDueJob';
import { loadSession, viewOf, type SessionView } from './sessionView';

const ONE_TIME_METHODS: ReadonlySet<PaymentType> = new Set(['pix', 'boleto']);

/**
 * Whether a 1:1 Pix or boleto session asked to be reactivated was ever disabled by its due date: such a session stays
 * blocked even once a later PATCH moved its due date forward. Read only when that rule can apply.
 */
async function wasExpiredByDueDate(deps: SessionDeps, tx: Queryable, session: Session, update: SessionUpdate): Promise<boolean> {
  if (update.isActive !== true || session.maxPayments !== null || !session.paymentMethods.some((m) => ONE_TIME_METHODS.has(m.paymentType))) return false;
  const history = await deps.store.history(tx, session.clientId, session.id);
  return history.some((h) => h.actions.includes('sessionExpiredByDueDate'));
}

export async function updateSession(deps: SessionDeps, input: { clientId: string; id: string; update: SessionUpdate }): Promise<SessionView> {
  const clientId = requireClientId(input.clientId);
  const updated = await withTransaction(deps.pool, async (tx) => {
    const session = await loadSession(deps, tx, clientId, input.id, true);
    const now = deps.clock.now();
    const { next, changes } = applyUpdate(session, input.update, now, { expiredByDueDate: await wasExpiredByDueDate(deps, tx, session, input.update) });
    if (Object.keys(changes).length === 0) return session;
    await deps.store.update(tx, next);
    await addHistory(deps, tx, next, updatedEntry(next, changes), now);
    if (changes.dueDate) await scheduleDueDate(tx, next);
    await emitSessionEvent(deps, tx, SESSION_EVENTS.updated, next, now);
    return next;
  });
  deps.outbox?.kick();
  return viewOf(deps, updated);
}
