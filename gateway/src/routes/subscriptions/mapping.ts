import type { settings } from '@platform/contracts';
import type { UpdateSubscriptionSettingsInput } from './schemas';

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
