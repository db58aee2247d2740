import type { settings } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';

/** A client's subscription settings, which the settings service owns. */
export interface SubscriptionSettings {
  /** Days after each failed attempt before the next one, in order. */
  retryDays: number[];
  cancelAfterAllRetries: boolean;
  /** Empty: the merchant's. */
  statementDescriptor: string;
}

export interface SubscriptionSettingsPort {
  settingsOf(clientId: string): Promise<SubscriptionSettings>;
}

/** Settings answers over gRPC, with the platform's defaults for a client that never changed them. */
export function createSubscriptionSettingsPort(client: PromiseClient<typeof settings.SettingsServiceService>): SubscriptionSettingsPort {
  return {
    settingsOf: async (clientId) => {
      const answer = await client.getSubscriptionSettings({ clientId });
      return {
        retryDays: answer.retryPolicy.map((step) => step.daysAfterLastAttempt),
        cancelAfterAllRetries: answer.cancelAfterAllRetries,
        statementDescriptor: answer.statementDescriptor,
      };
    },
  };
}
