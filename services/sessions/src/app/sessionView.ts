import { errors, type Queryable } from '@platform/kit';
import { sessionPublicKey } from '../domain/publicKey';
import type { Session } from '../domain/session';
import type { SessionDeps } from './deps';

export interface SessionView {
  session: Session;
  publicKey: string;
}

/** The session with its public key, derived again on every read (never stored). */
export function viewOf(deps: SessionDeps, session: Session): SessionView {
  return { session, publicKey: sessionPublicKey(deps.keySecret, session.id) };
}

/** The client's session, locked for the transaction with `forUpdate`; not found otherwise. */
export async function loadSession(deps: SessionDeps, db: Queryable, clientId: string, id: string, forUpdate = false): Promise<Session> {
  const session = await deps.store.findById(db, clientId, id, { forUpdate });
  if (!session) throw errors.notFound('Session', id);
  return session;
}
