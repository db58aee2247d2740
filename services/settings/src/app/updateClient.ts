import { enqueueEvent, errors, requireClientId, withTransaction } from '@platform/kit';
import { parseClientChanges, type ClientAccount } from '../domain/clients';
import { clientEventData, SETTINGS_EVENTS } from '../events/settingsEvents';
import type { AppDeps } from './deps';

export async function updateClient(
  deps: AppDeps,
  input: { clientId: string; name?: string; prepaymentEnabled?: boolean },
): Promise<ClientAccount> {
  const changes = parseClientChanges(input);
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  return withTransaction(deps.pool, async (tx) => {
    const client = await deps.stores.clients.update(tx, clientId, changes, now);
    if (!client) throw errors.notFound('Client', clientId);
    await enqueueEvent(tx, { type: SETTINGS_EVENTS.clientUpdated, clientId, data: clientEventData(client), occurredAt: now });
    return client;
  });
}
