import type { settings } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { z } from '../zod';
import { requiredTimestamp, timestampOrNull } from './json';

/** A client account: the answer of /admin/v1/clients and the `data` of `settings.client.*` events. */
export const ClientSchema = z
  .object({
    clientId: z.string(),
    name: z.string(),
    environment: z.string().openapi({ example: 'sandbox' }),
    prepaymentEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Client');

export type ClientJson = z.infer<typeof ClientSchema>;

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
export const CreatedClientSchema = z
  .object({
    clientId: z.string(),
    apiKey: z.string().openapi({ description: 'The secret key, shown only here' }),
    keyId: z.string(),
    name: z.string(),
    environment: z.string(),
    prepaymentEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .openapi('CreatedClient');

export type CreatedClientJson = z.infer<typeof CreatedClientSchema>;

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
export const CreatedApiKeySchema = z
  .object({
    keyId: z.string(),
    apiKey: z.string().openapi({ description: 'The secret key, shown only here' }),
    createdAt: z.iso.datetime(),
  })
  .openapi('CreatedApiKey');

export type CreatedApiKeyJson = z.infer<typeof CreatedApiKeySchema>;

export function toCreatedApiKeyJson(created: settings.CreateApiKeyResponse): CreatedApiKeyJson {
  return { keyId: created.keyId, apiKey: created.apiKey, createdAt: requiredTimestamp(created.createdAt, 'createdAt') };
}

/** The `data` of `settings.api_key.revoked`: which key, never the key itself. */
export const ApiKeyRevokedSchema = z.object({ keyId: z.string(), kind: z.string(), revokedAt: z.iso.datetime() });

export type ApiKeyRevokedJson = z.infer<typeof ApiKeyRevokedSchema>;

export function toApiKeyRevokedJson(revoked: { keyId: string; kind: string; revokedAt: Date }): ApiKeyRevokedJson {
  return { keyId: revoked.keyId, kind: revoked.kind, revokedAt: revoked.revokedAt.toISOString() };
}

/** A public key limited to some scopes (POST /v1/auth); REST only. */
export const ClientTokenSchema = z
  .object({
    clientId: z.string(),
    publicKey: z.string().openapi({ description: 'Goes in X-Api-Key; reaches only its scopes' }),
    keyId: z.string().openapi({ description: 'Id of the public key, to revoke it' }),
    scope: z.array(z.string()),
    expires: z.int(),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable().openapi({ description: 'null when the key never expires' }),
  })
  .openapi('ClientToken');

export type ClientTokenJson = z.infer<typeof ClientTokenSchema>;

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
