import { createApiKeyStore, type ApiKeyStore } from './apiKeyStore';
import { createClientStore, type ClientStore } from './clientStore';
import { createLinkSettingsStore, type LinkSettingsStore } from './linkSettingsStore';
import { createLogoStore, type LogoStore } from './logoStore';
import { createSubscriptionSettingsStore, type SubscriptionSettingsStore } from './subscriptionSettingsStore';

export interface Stores {
  clients: ClientStore;
  apiKeys: ApiKeyStore;
  logos: LogoStore;
  linkSettings: LinkSettingsStore;
  subscriptionSettings: SubscriptionSettingsStore;
}

export function createStores(): Stores {
  return {
    clients: createClientStore(),
    apiKeys: createApiKeyStore(),
    logos: createLogoStore(),
    linkSettings: createLinkSettingsStore(),
    subscriptionSettings: createSubscriptionSettingsStore(),
  };
}
