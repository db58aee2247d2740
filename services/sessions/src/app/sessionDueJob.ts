import { cancelJobs, scheduleJob, withTransaction, type Queryable } from '@platform/kit';
import { expiredByDueDateEntry } from '../domain/history';
import type { Session } from '../domain/session';
import { SESSION_EVENTS } from '../events/sessionEvents';
import { DUE_DATE_JOB, type SessionDeps } from './deps';
import { addHistory, emitSessionEvent } from './sessionChanges';

/** Schedules the due-date job of a session again (none when it has no due date), in the transaction of the change. */
export async function scheduleDueDate(tx: Queryable, session: Session): Promise<void> {
  await cancelJobs(tx, { kind: DUE_DATE_JOB, dedupeKey: session.id });
  if (session.dueDate) {
    await scheduleJob(tx, { kind: DUE_DATE_JOB, runAt: session.dueDate, dedupeKey: session.id, payload: { clientId: session.clientId, sessionId: session.id } });
  }
}

/** The due-date job: disables the session if it still takes payments, with `sessionExpiredByDueDate`. */
export async function expireByDueDate(deps: SessionDeps, payload: { clientId: string; sessionId: string }): Promise<{ rescheduleAt: Date } | undefined> {
  const early = await withTransaction(deps.pool, async (tx): Promise<Date | undefined> => {
    const session = await deps.store.findById(tx, payload.clientId, payload.sessionId, { forUpdate: true });
    if (!session || !session.dueDate || session.status !== 'created' || !session.isActive) return undefined;
    const now = deps.clock.now();
    // Run before the due time by this process's clock: run again then.
    if (session.dueDate.getTime() > now.getTime()) return session.dueDate;
    const disabled: Session = { ...session, isActive: false, updatedAt: now };
    await deps.store.update(tx, disabled);
    await addHistory(deps, tx, disabled, expiredByDueDateEntry(disabled), now);
    await emitSessionEvent(deps, tx, SESSION_EVENTS.disabled, disabled, now);
    return undefined;
  });
  deps.outbox?.kick();
  return early ? { rescheduleAt: early } : undefined;
}
