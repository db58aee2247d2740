import type { settings } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';
import type { ClientsPort } from './deps';

/** Client names come from the settings service, which owns the accounts. */
export function createClientsPort(client: PromiseClient<typeof settings.SettingsServiceService>): ClientsPort {
  return {
    clientName: async (clientId) => (await client.getClient({ clientId })).name,
  };
}
