import { isUuid } from '@platform/kit';
import { publicKeyMatches } from '../domain/publicKey';
import type { SessionDeps } from './deps';

/** Whether `key` is the public key of that session of that client (the gateway's check of a session's `X-Api-Key`). */
export async function authenticateSessionKey(deps: SessionDeps, input: { clientId: string; sessionId: string; key: string }): Promise<boolean> {
  if (!isUuid(input.clientId)) return false;
  const hash = await deps.store.publicKeyHash(deps.pool, input.clientId, input.sessionId);
  return hash !== null && publicKeyMatches(hash, input.key);
}
