import {
  SETTINGS_EVENT_TYPES,
  toApiKeyRevokedJson,
  toClientJson,
  toLinkSettingsJson,
  toSubscriptionSettingsJson,
  type ApiKeyRevokedJson,
  type ClientJson,
  type LinkSettingsJson,
  type SubscriptionSettingsJson,
} from '@platform/api-model';
import type { ApiKey } from '../domain/apiKeys';
import type { ClientAccount } from '../domain/clients';
import type { LinkSettings } from '../domain/linkSettings';
import type { SubscriptionSettings } from '../domain/subscriptionSettings';
import { toClientMessage, toLinkSettingsMessage, toSubscriptionSettingsMessage } from '../wire/settingsMessages';

/**
 * Events this service publishes (subject = type), each with the envelope `{id, type, occurredAt, clientId, data}`.
 * `data` is the public JSON of the REST API, built by the mapper the gateway applies to the gRPC answer: ClientJson,
 * ApiKeyRevokedJson (lets a caller that caches authentication drop the key at once), LinkSettingsJson,
 * SubscriptionSettingsJson. Keys and their hashes never appear in an event.
 */
export const SETTINGS_EVENTS = SETTINGS_EVENT_TYPES;

export function clientEventData(client: ClientAccount): ClientJson {
  return toClientJson(toClientMessage(client));
}

export function apiKeyRevokedData(key: ApiKey, revokedAt: Date): ApiKeyRevokedJson {
  return toApiKeyRevokedJson({ keyId: key.id, kind: key.kind, revokedAt });
}

/** `publicUrl` is the gateway's public origin, which serves the logo. */
export function linkSettingsEventData(settings: LinkSettings, publicUrl: string): LinkSettingsJson {
  return toLinkSettingsJson(toLinkSettingsMessage(settings), publicUrl);
}

export function subscriptionSettingsEventData(settings: SubscriptionSettings): SubscriptionSettingsJson {
  return toSubscriptionSettingsJson(toSubscriptionSettingsMessage(settings));
}
