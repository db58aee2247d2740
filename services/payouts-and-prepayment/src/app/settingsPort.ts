import type { settings } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';
import type { SettingsPort } from './deps';

/** The settings service over gRPC. */
export function createSettingsPort(client: PromiseClient<typeof settings.SettingsServiceService>): SettingsPort {
  return {
    prepaymentEnabled: async (clientId) => (await client.getClient({ clientId })).prepaymentEnabled,
  };
}
