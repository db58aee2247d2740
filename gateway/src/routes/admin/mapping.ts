import { AppError } from '@platform/kit';
import type { settings } from '@platform/contracts';
import { requiredTimestamp } from '../../http/json';
import type { ClientJson, CreatedApiKeyJson, CreatedClientJson } from './schemas';

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

export function toCreatedApiKeyJson(created: settings.CreateApiKeyResponse): CreatedApiKeyJson {
  return { keyId: created.keyId, apiKey: created.apiKey, createdAt: requiredTimestamp(created.createdAt, 'createdAt') };
}
