import type { settings } from '@platform/contracts';
import { textOrNull, timestampOrNull } from '../../http/json';
import type { SubscriptionSettingsJson, UpdateSubscriptionSettingsInput } from './schemas';

export function toSubscriptionSettingsJson(value: settings.SubscriptionSettings): SubscriptionSettingsJson {
  return {
    clientId: value.clientId,
    retryPolicy: value.retryPolicy.map((step) => ({ daysAfterLastAttempt: step.daysAfterLastAttempt })),
    cancelAfterAllRetries: value.cancelAfterAllRetries,
    statementDescriptor: textOrNull(value.statementDescriptor),
    createdAt: timestampOrNull(value.createdAt),
    updatedAt: timestampOrNull(value.updatedAt),
  };
}

export function toUpdateSubscriptionSettingsRequest(
  clientId: string,
  input: UpdateSubscriptionSettingsInput,
): settings.UpdateSubscriptionSettingsRequest {
  return {
    clientId,
    // Wrapped, so that "not given" and "an empty policy" stay different on the wire.
    retryPolicy: input.retryPolicy ? { steps: input.retryPolicy.map((s) => ({ daysAfterLastAttempt: s.daysAfterLastAttempt })) } : undefined,
    cancelAfterAllRetries: input.cancelAfterAllRetries,
    statementDescriptor: input.statementDescriptor,
  };
}
