import type { SubscriptionSettings, SubscriptionSettingsPort } from '../../src/modules/subscriptions/app/settingsPort';

/** Settings as payments sees it for subscriptions: the platform's defaults, or what a test sets for a client. */
export class FakeSubscriptionSettings implements SubscriptionSettingsPort {
  readonly byClient = new Map<string, SubscriptionSettings>();
  static readonly DEFAULTS: SubscriptionSettings = { retryDays: [1, 3, 7], cancelAfterAllRetries: true, statementDescriptor: '' };

  async settingsOf(clientId: string): Promise<SubscriptionSettings> {
    return this.byClient.get(clientId) ?? FakeSubscriptionSettings.DEFAULTS;
  }
}
