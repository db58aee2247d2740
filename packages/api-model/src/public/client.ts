import type { settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { requiredTimestamp, timestampOrNull } from './json';

/** A client account: the answer of /admin/v1/clients and the `data` of `settings.client.*` events. */
export interface ClientJson {
  clientId: string;
  name: string;
  environment: string;
  prepaymentEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toClientJson(client: settings.Client): ClientJson {
  return {
    clientId: client.id,
    name: client.name,
    environment: client.environment,
    prepaymentEnabled: client.prepaymentEnabled,
    createdAt: requiredTimestamp(client.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(client.updatedAt, 'updatedAt'),
  };
}

/** The answer of creating a client: the only time its first secret key is shown (never in an event). */
export interface CreatedClientJson {
  clientId: string;
  apiKey: string;
  keyId: string;
  name: string;
  environment: string;
  prepaymentEnabled: boolean;
  createdAt: string;
}

export function toCreatedClientJson(created: settings.CreateClientResponse): CreatedClientJson {
  if (!created.client) throw new AppError('internal', 'CreateClient answered without a client');
  const client = toClientJson(created.client);
  return {
    clientId: client.clientId,
    apiKey: created.apiKey,
    keyId: created.keyId,
    name: client.name,
    environment: client.environment,
    prepaymentEnabled: client.prepaymentEnabled,
    createdAt: client.createdAt,
  };
}

/** The answer of creating another secret key: the only time it is shown (never in an event). */
export interface CreatedApiKeyJson {
  keyId: string;
  apiKey: string;
  createdAt: string;
}

export function toCreatedApiKeyJson(created: settings.CreateApiKeyResponse): CreatedApiKeyJson {
  return { keyId: created.keyId, apiKey: created.apiKey, createdAt: requiredTimestamp(created.createdAt, 'createdAt') };
}

/** The `data` of `settings.api_key.revoked`: which key, never the key itself. */
export interface ApiKeyRevokedJson {
  keyId: string;
  kind: string;
  revokedAt: string;
}

export function toApiKeyRevokedJson(revoked: { keyId: string; kind: string; revokedAt: Date }): ApiKeyRevokedJson {
  return { keyId: revoked.keyId, kind: revoked.kind, revokedAt: revoked.revokedAt.toISOString() };
}

/** A public key limited to some scopes (POST /v1/auth); REST only. */
export interface ClientTokenJson {
  clientId: string;
  publicKey: string;
  keyId: string;
  scope: string[];
  expires: number;
  createdAt: string;
  expiresAt: string | null;
}

export function toClientTokenJson(token: settings.ClientToken): ClientTokenJson {
  return {
    clientId: token.clientId,
    publicKey: token.publicKey,
    keyId: token.keyId,
    scope: token.scope,
    expires: token.expires,
    createdAt: requiredTimestamp(token.createdAt, 'createdAt'),
    expiresAt: timestampOrNull(token.expiresAt),
  };
}
