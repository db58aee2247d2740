import { toClientTokenJson } from '@platform/api-model';
import type { SettingsClient } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CREATE_PUBLIC_KEY, PUBLIC_KEY } from './examples';
import { ClientTokenSchema, CreateClientTokenBody } from './schemas';

export function authRoutes({ settings }: { settings: SettingsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth',
      operationId: 'createPublicKey',
      summary: 'Create a public key limited to some scopes, for client-side use',
      tags: [TAGS.auth],
      resource: 'secretOnly',
      body: CreateClientTokenBody,
      response: { status: 201, description: 'The public key', schema: ClientTokenSchema },
      examples: { request: { tokens: { summary: 'A key that only tokenizes cards, for an hour', value: CREATE_PUBLIC_KEY } }, response: { key: { summary: 'The public key', value: PUBLIC_KEY } } },
      handler: async ({ body, client, call }) =>
        toClientTokenJson(await settings.createClientToken({ clientId: client.clientId, scope: body.scope, expires: body.expires }, call)),
    }),
  ];
}
