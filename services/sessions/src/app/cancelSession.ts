import { cancelJobs, errors, requireClientId, withTransaction } from '@platform/kit';
import { canceledEntry } from '../domain/history';
import { nextStatus, type Session } from '../domain/session';
import { SESSION_EVENTS } from '../events/sessionEvents';
import { DUE_DATE_JOB, type SessionDeps } from './deps';
import { addHistory, emitSessionEvent } from './sessionChanges';
import { loadSession, viewOf, type SessionView } from './sessionView';

export async function cancelSession(deps: SessionDeps, input: { clientId: string; id: string }): Promise<SessionView> {
  const clientId = requireClientId(input.clientId);
  const canceled = await withTransaction(deps.pool, async (tx) => {
    const session = await loadSession(deps, tx, clientId, input.id, true);
    const now = deps.clock.now();
    const status = nextStatus(session.status, 'cancel');
    if (!status) throw errors.businessRule('session_not_cancelable', `A ${session.status} session cannot be canceled`);
    const next: Session = { ...session, status, isActive: false, updatedAt: now };
    await deps.store.update(tx, next);
    await addHistory(deps, tx, next, canceledEntry(session), now);
    await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: session.id });
    await emitSessionEvent(deps, tx, SESSION_EVENTS.canceled, next, now);
    return next;
  });
  deps.outbox?.kick();
  return viewOf(deps, canceled);
}
