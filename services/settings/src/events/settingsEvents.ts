import type { ApiKey } from '../domain/apiKeys';
import type { ClientAccount } from '../domain/clients';
import type { LinkSettings } from '../domain/linkSettings';
import type { SubscriptionSettings } from '../domain/subscriptionSettings';

/**
 * Events this service publishes (subject = type), each with the envelope `{id, type, occurredAt, clientId, data}`.
 * Keys and their hashes never appear in an event.
 */
export const SETTINGS_EVENTS = {
  /** data: ClientEventData */
  clientCreated: 'settings.client.created',
  /** data: ClientEventData */
  clientUpdated: 'settings.client.updated',
  /** data: ApiKeyRevokedData; lets a caller that caches authentication drop the key at once. */
  apiKeyRevoked: 'settings.api_key.revoked',
  /** data: LinkSettingsEventData */
  linkSettingsCreated: 'settings.link_settings.created',
  /** data: LinkSettingsEventData */
  linkSettingsUpdated: 'settings.link_settings.updated',
  /** data: SubscriptionSettingsEventData */
  subscriptionSettingsUpdated: 'settings.subscription_settings.updated',
} as const;

export interface ClientEventData {
  id: string;
  name: string;
  environment: string;
  prepaymentEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ApiKeyRevokedData {
  keyId: string;
  kind: string;
  revokedAt: string;
}

export interface LinkSettingsEventData {
  id: string;
  clientId: string;
  merchantId: string | null;
  mainColor: string | null;
  secondaryColor: string | null;
  attentionColor: string | null;
  errorColor: string | null;
  successColor: string | null;
  backgroundColor: string | null;
  companyUrl: string | null;
  logoId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SubscriptionSettingsEventData {
  clientId: string;
  retryPolicy: Array<{ daysAfterLastAttempt: number }>;
  cancelAfterAllRetries: boolean;
  statementDescriptor: string;
  updatedAt: string | null;
}

export function clientEventData(client: ClientAccount): ClientEventData {
  return {
    id: client.id,
    name: client.name,
    environment: client.environment,
    prepaymentEnabled: client.prepaymentEnabled,
    createdAt: client.createdAt.toISOString(),
    updatedAt: client.updatedAt.toISOString(),
  };
}

export function apiKeyRevokedData(key: ApiKey, revokedAt: Date): ApiKeyRevokedData {
  return { keyId: key.id, kind: key.kind, revokedAt: revokedAt.toISOString() };
}

export function linkSettingsEventData(settings: LinkSettings): LinkSettingsEventData {
  return {
    id: settings.id,
    clientId: settings.clientId,
    merchantId: settings.merchantId,
    mainColor: settings.mainColor ?? null,
    secondaryColor: settings.secondaryColor ?? null,
    attentionColor: settings.attentionColor ?? null,
    errorColor: settings.errorColor ?? null,
    successColor: settings.successColor ?? null,
    backgroundColor: settings.backgroundColor ?? null,
    companyUrl: settings.companyUrl ?? null,
    logoId: settings.logoId,
    createdAt: settings.createdAt.toISOString(),
    updatedAt: settings.updatedAt.toISOString(),
  };
}

export function subscriptionSettingsEventData(settings: SubscriptionSettings): SubscriptionSettingsEventData {
  return {
    clientId: settings.clientId,
    retryPolicy: settings.retryPolicy.map((step) => ({ daysAfterLastAttempt: step.daysAfterLastAttempt })),
    cancelAfterAllRetries: settings.cancelAfterAllRetries,
    statementDescriptor: settings.statementDescriptor,
    updatedAt: settings.updatedAt?.toISOString() ?? null,
  };
}
