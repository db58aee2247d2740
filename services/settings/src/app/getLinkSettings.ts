import { errors, requireClientId } from '@platform/kit';
import { platformDefaultSettings, type LinkSettings } from '../domain/linkSettings';
import type { AppDeps } from './deps';
import { merchantScope } from './scope';

/**
 * The merchant's settings when it has its own, else the client default: the client's own, else the platform's.
 * The merchant must be the caller's (payments is asked): not_found otherwise.
 */
export async function getLinkSettings(deps: AppDeps, input: { clientId: string; merchantId: string }): Promise<LinkSettings> {
  const clientId = requireClientId(input.clientId);
  const merchantId = merchantScope(input.merchantId);
  // Another client's merchant is not found, rather than answered with the caller's default.
  if (merchantId !== null) await deps.merchants.requireMerchant(clientId, merchantId);
  const settings = await deps.stores.linkSettings.findByClientIdMerchantIdOrDefault(deps.pool, clientId, merchantId);
  if (settings) return settings;
  const client = await deps.stores.clients.findById(deps.pool, clientId);
  if (!client) throw errors.notFound('Client', clientId);
  return platformDefaultSettings(client);
}
