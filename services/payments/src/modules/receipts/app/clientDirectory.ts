import type { settings } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';
import type { ClientDirectory } from './deps';

/** Client names come from the settings service, which owns the accounts. */
export function createClientDirectory(client: PromiseClient<typeof settings.SettingsServiceService>): ClientDirectory {
  return {
    clientName: async (clientId) => (await client.getClient({ clientId })).name,
  };
}
