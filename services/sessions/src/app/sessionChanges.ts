import { randomUUID } from 'node:crypto';
import type { Queryable } from '@platform/kit';
import type { HistoryEntry } from '../domain/history';
import { sessionPublicKey } from '../domain/publicKey';
import type { Session } from '../domain/session';
import { recordSessionEvent, type SessionEventType } from '../events/sessionEvents';
import type { HistoryRecord } from '../store/sessionStore';
import type { SessionDeps } from './deps';

/* What every change of a session writes in its transaction: a history item, and an event. */

/** Appends the history item; false when an item with the same dedupe key exists (a 1:N record kept once). */
export async function addHistory(deps: SessionDeps, tx: Queryable, session: Session, entry: HistoryEntry, at: Date): Promise<boolean> {
  const record: HistoryRecord = {
    id: randomUUID(),
    sessionId: session.id,
    clientId: session.clientId,
    merchantId: session.merchantId,
    status: entry.status,
    action: entry.action,
    actions: entry.actions,
    diff: entry.diff,
    dedupeKey: entry.dedupeKey,
    createdAt: at,
  };
  return deps.store.addHistory(tx, record);
}

/** The event of the change, with the session as the REST API shows it after the change. */
export async function emitSessionEvent(deps: SessionDeps, tx: Queryable, type: SessionEventType, session: Session, at: Date): Promise<void> {
  await recordSessionEvent(tx, type, session, { publicKey: sessionPublicKey(deps.keySecret, session.id), publicUrl: deps.publicUrl }, at);
}
