import { enqueueEvent, errors, requireClientId, withTransaction } from '@platform/kit';
import {
  DEFAULT_SUBSCRIPTION_SETTINGS,
  hasChanges,
  parseSubscriptionSettingsChanges,
  type RetryStep,
  type SubscriptionSettings,
} from '../domain/subscriptionSettings';
import { SETTINGS_EVENTS, subscriptionSettingsEventData } from '../events/settingsEvents';
import type { AppDeps } from './deps';

/** Applies the given fields onto the stored settings, or onto the defaults the first time. */
export async function updateSubscriptionSettings(
  deps: AppDeps,
  input: { clientId: string; retryPolicy?: RetryStep[]; cancelAfterAllRetries?: boolean; statementDescriptor?: string },
): Promise<SubscriptionSettings> {
  const changes = parseSubscriptionSettingsChanges(input);
  const clientId = requireClientId(input.clientId);
  if (!hasChanges(changes)) {
    throw errors.businessRule('no_effective_fields', 'Nothing to update: send retryPolicy, cancelAfterAllRetries or statementDescriptor');
  }
  const now = deps.clock.now();
  return withTransaction(deps.pool, async (tx) => {
    const settings = await deps.stores.subscriptionSettings.upsert(tx, clientId, changes, DEFAULT_SUBSCRIPTION_SETTINGS, now);
    await enqueueEvent(tx, {
      type: SETTINGS_EVENTS.subscriptionSettingsUpdated,
      clientId,
      data: subscriptionSettingsEventData(settings),
      occurredAt: now,
    });
    return settings;
  });
}
