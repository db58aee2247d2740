import { errors } from '@platform/kit';
import { sessionPublicKey } from '../domain/publicKey';
import type { SessionDeps } from './deps';
import type { SessionView } from './sessionView';

/**
 * The session behind a payment link, for the hosted checkout page, which a buyer opens without credentials: the
 * link's id names the client, and the session is then read as that client's. An unknown id is not found.
 */
export async function getCheckoutSession(deps: SessionDeps, input: { id: string }): Promise<SessionView> {
  const clientId = await deps.store.linkOwner(deps.pool, input.id);
  const session = clientId ? await deps.store.findById(deps.pool, clientId, input.id) : null;
  if (!session) throw errors.notFound('Session', input.id);
  return { session, publicKey: sessionPublicKey(deps.keySecret, session.id) };
}
