import { randomUUID } from 'node:crypto';
import { errors, requireClientId, withTransaction } from '@platform/kit';
import { generateApiKey, hashApiKey, type ApiKey } from '../domain/apiKeys';
import { parseClientTokenRequest, tokenExpiry } from '../domain/clientTokens';
import type { AppDeps } from './deps';

export interface CreatedClientToken {
  key: ApiKey;
  /** The public key in clear, returned this once; only its hash is kept. */
  publicKey: string;
  expires: number;
}

// Not replayed under X-Idempotency-Key for the same reason as secret keys: only the key's hash is ever stored.
export async function createClientToken(
  deps: AppDeps,
  input: { clientId: string; scope: string[]; expires: number },
): Promise<CreatedClientToken> {
  const request = parseClientTokenRequest(input);
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  return withTransaction(deps.pool, async (tx) => {
    const client = await deps.stores.clients.findById(tx, clientId);
    if (!client) throw errors.notFound('Client', clientId);
    const publicKey = generateApiKey('public', client.environment);
    const key: ApiKey = {
      id: randomUUID(),
      clientId,
      kind: 'public',
      scopes: request.scopes,
      expiresAt: tokenExpiry(now, request.expires),
      revokedAt: null,
      createdAt: now,
    };
    await deps.stores.apiKeys.insert(tx, key, hashApiKey(publicKey));
    return { key, publicKey, expires: request.expires };
  });
}
