import { randomUUID } from 'node:crypto';
import { enqueueEvent, withTransaction } from '@platform/kit';
import { generateApiKey, hashApiKey, type ApiKey } from '../domain/apiKeys';
import { parseNewClient, type ClientAccount } from '../domain/clients';
import { clientEventData, SETTINGS_EVENTS } from '../events/settingsEvents';
import type { AppDeps } from './deps';

export interface CreatedClient {
  client: ClientAccount;
  /** The secret key in clear: returned this once, never stored. */
  apiKey: string;
  keyId: string;
}

// Not guarded by X-Idempotency-Key: a replay would have to return the secret key, which would mean storing it in clear.
export async function createClient(deps: AppDeps, input: { name: string; environment: string; prepaymentEnabled: boolean }): Promise<CreatedClient> {
  const fields = parseNewClient(input);
  const now = deps.clock.now();
  const client: ClientAccount = { id: randomUUID(), ...fields, createdAt: now, updatedAt: now };
  const apiKey = generateApiKey('secret', client.environment);
  const key: ApiKey = { id: randomUUID(), clientId: client.id, kind: 'secret', scopes: [], expiresAt: null, revokedAt: null, createdAt: now };
  await withTransaction(deps.pool, async (tx) => {
    await deps.stores.clients.insert(tx, client);
    await deps.stores.apiKeys.insert(tx, key, hashApiKey(apiKey));
    await enqueueEvent(tx, { type: SETTINGS_EVENTS.clientCreated, clientId: client.id, data: clientEventData(client), occurredAt: now });
  });
  return { client, apiKey, keyId: key.id };
}
