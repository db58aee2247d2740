import { errors } from '@platform/kit';
import type { LinkSettings } from '../domain/linkSettings';
import type { AppDeps } from './deps';
import { merchantScope, requireClientId } from './scope';

/** The merchant's settings when it has its own, else the client default. */
export async function getLinkSettings(deps: AppDeps, input: { clientId: string; merchantId: string }): Promise<LinkSettings> {
  const clientId = requireClientId(input.clientId);
  const merchantId = merchantScope(input.merchantId);
  const settings = await deps.stores.linkSettings.findByClientIdMerchantIdOrDefault(deps.pool, clientId, merchantId);
  if (!settings) {
    throw errors.notFound(
      merchantId === null
        ? 'Payment-link settings for the client default'
        : `Payment-link settings for merchant ${merchantId} or the client default`,
    );
  }
  return settings;
}
