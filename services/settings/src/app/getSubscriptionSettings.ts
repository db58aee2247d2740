import { errors, requireClientId } from '@platform/kit';
import { defaultSubscriptionSettings, type SubscriptionSettings } from '../domain/subscriptionSettings';
import type { AppDeps } from './deps';

/** The stored settings, or the defaults while the client has changed nothing. */
export async function getSubscriptionSettings(deps: AppDeps, input: { clientId: string }): Promise<SubscriptionSettings> {
  const clientId = requireClientId(input.clientId);
  const stored = await deps.stores.subscriptionSettings.findByClientId(deps.pool, clientId);
  if (stored) return stored;
  if (!(await deps.stores.clients.findById(deps.pool, clientId))) throw errors.notFound('Client', clientId);
  return defaultSubscriptionSettings(clientId);
}
