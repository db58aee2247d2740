import { randomUUID } from 'node:crypto';
import { errors, requireClientId, withTransaction } from '@platform/kit';
import { generateApiKey, hashApiKey, type ApiKey } from '../domain/apiKeys';
import type { AppDeps } from './deps';

export interface CreatedApiKey {
  key: ApiKey;
  /** In clear, returned this once. */
  apiKey: string;
}

// Like createClient, not replayed under X-Idempotency-Key: the answer is a secret that is never stored.
export async function createApiKey(deps: AppDeps, input: { clientId: string }): Promise<CreatedApiKey> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  return withTransaction(deps.pool, async (tx) => {
    const client = await deps.stores.clients.findById(tx, clientId);
    if (!client) throw errors.notFound('Client', clientId);
    const apiKey = generateApiKey('secret', client.environment);
    const key: ApiKey = { id: randomUUID(), clientId, kind: 'secret', scopes: [], expiresAt: null, revokedAt: null, createdAt: now };
    await deps.stores.apiKeys.insert(tx, key, hashApiKey(apiKey));
    return { key, apiKey };
  });
}
