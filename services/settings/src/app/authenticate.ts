import { errors } from '@platform/kit';
import { hashApiKey, isKeyUsable, looksLikeApiKey, sameHash, type ApiKey } from '../domain/apiKeys';
import type { ClientAccount } from '../domain/clients';
import { isUuid } from '../domain/validation';
import type { AppDeps } from './deps';

export interface Authenticated {
  client: ClientAccount;
  key: ApiKey;
}

/**
 * Every way of failing answers the same error, so a caller learns nothing about which part was wrong.
 * One indexed query: the key's hash, checked against the client id on the same row.
 */
export async function authenticate(deps: AppDeps, input: { clientId: string; apiKey: string }): Promise<Authenticated> {
  const refused = errors.unauthenticated();
  if (!isUuid(input.clientId) || !looksLikeApiKey(input.apiKey)) throw refused;
  const presented = hashApiKey(input.apiKey);
  const found = await deps.stores.apiKeys.findCredentialByClientIdKeyHash(deps.pool, input.clientId, presented);
  if (!found || !sameHash(found.keyHash, presented) || !isKeyUsable(found.key, deps.clock.now())) throw refused;
  return { client: found.client, key: found.key };
}
