import { errors, requireClientId } from '@platform/kit';
import type { ClientAccount } from '../domain/clients';
import type { AppDeps } from './deps';

export async function getClient(deps: AppDeps, input: { clientId: string }): Promise<ClientAccount> {
  const clientId = requireClientId(input.clientId);
  const client = await deps.stores.clients.findById(deps.pool, clientId);
  if (!client) throw errors.notFound('Client', clientId);
  return client;
}
