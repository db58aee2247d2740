import { toClientJson, toCreatedApiKeyJson, toCreatedClientJson } from '@platform/api-model';
import type { SettingsClient } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CREATE_CLIENT, CREATED_CLIENT } from './examples';
import {
  ApiKeyParams,
  ClientParams,
  ClientSchema,
  CreateClientBody,
  CreatedApiKeySchema,
  CreatedClientSchema,
  UpdateClientBody,
} from './schemas';

const tags = [TAGS.admin] as const;

export function adminRoutes({ settings }: { settings: SettingsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/admin/v1/clients',
      operationId: 'createClientAccount',
      summary: 'Create a client account and its first secret API key',
      tags,
      resource: 'admin',
      body: CreateClientBody,
      response: { status: 201, description: 'The client and its secret key (shown only here)', schema: CreatedClientSchema },
      examples: { request: { sandbox: { summary: 'A sandbox account', value: CREATE_CLIENT } }, response: { client: { summary: 'The account and its first secret key, shown this once', value: CREATED_CLIENT } } },
      handler: async ({ body, call }) =>
        toCreatedClientJson(
          await settings.createClient(
            { name: body.name, environment: body.environment, prepaymentEnabled: body.prepaymentEnabled ?? false },
            call,
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/v1/clients/{clientId}',
      operationId: 'getClientAccount',
      summary: 'Get a client account',
      tags,
      resource: 'admin',
      params: ClientParams,
      response: { status: 200, description: 'The client', schema: ClientSchema },
      handler: async ({ params, call }) => toClientJson(await settings.getClient({ clientId: params.clientId }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/admin/v1/clients/{clientId}',
      operationId: 'updateClientAccount',
      summary: 'Update a client account',
      tags,
      resource: 'admin',
      params: ClientParams,
      body: UpdateClientBody,
      response: { status: 200, description: 'The updated client', schema: ClientSchema },
      handler: async ({ params, body, call }) =>
        toClientJson(
          await settings.updateClient({ clientId: params.clientId, name: body.name, prepaymentEnabled: body.prepaymentEnabled }, call),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/admin/v1/clients/{clientId}/api-keys',
      operationId: 'createApiKey',
      summary: 'Create another secret API key for a client',
      tags,
      resource: 'admin',
      params: ClientParams,
      response: { status: 201, description: 'The new key (shown only here)', schema: CreatedApiKeySchema },
      handler: async ({ params, call }) => toCreatedApiKeyJson(await settings.createApiKey({ clientId: params.clientId }, call)),
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/v1/clients/{clientId}/api-keys/{keyId}',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description: 'Gateways may keep accepting the key for up to AUTH_CACHE_TTL_MS (2 s by default).',
      tags,
      resource: 'admin',
      params: ApiKeyParams,
      response: { status: 204, description: 'Revoked' },
      handler: async ({ params, call }) => {
        await settings.revokeApiKey({ clientId: params.clientId, keyId: params.keyId }, call);
      },
    }),
  ];
}
