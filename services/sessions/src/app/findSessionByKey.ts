import { isUuid } from '@platform/kit';
import { hashPublicKey, SESSION_KEY_PREFIX } from '../domain/publicKey';
import type { SessionDeps } from './deps';

/** The client's session whose public key this is ('' when none is): a card tokenized with it pays that session only. */
export async function findSessionByKey(deps: SessionDeps, input: { clientId: string; key: string }): Promise<string> {
  if (!isUuid(input.clientId) || !input.key.startsWith(SESSION_KEY_PREFIX)) return '';
  const id = await deps.store.findByKeyHash(deps.pool, input.clientId.toLowerCase(), hashPublicKey(input.key));
  return id ?? '';
}
