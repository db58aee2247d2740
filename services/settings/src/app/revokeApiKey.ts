import { enqueueEvent, errors, requireClientId, withTransaction } from '@platform/kit';
import { isUuid } from '../domain/validation';
import { apiKeyRevokedData, SETTINGS_EVENTS } from '../events/settingsEvents';
import type { AppDeps } from './deps';

/** Revokes a secret or public key of the client. Revoking an already revoked key is a no-op, as a repeated DELETE is. */
export async function revokeApiKey(deps: AppDeps, input: { clientId: string; keyId: string }): Promise<void> {
  const clientId = requireClientId(input.clientId);
  if (!isUuid(input.keyId)) throw errors.notFound('API key', input.keyId);
  const now = deps.clock.now();
  await withTransaction(deps.pool, async (tx) => {
    const key = await deps.stores.apiKeys.findByClientIdKeyId(tx, clientId, input.keyId, { forUpdate: true });
    if (!key) throw errors.notFound('API key', input.keyId);
    if (key.revokedAt !== null) return;
    await deps.stores.apiKeys.markRevoked(tx, clientId, key.id, now);
    await enqueueEvent(tx, { type: SETTINGS_EVENTS.apiKeyRevoked, clientId, data: apiKeyRevokedData(key, now), occurredAt: now });
  });
}
