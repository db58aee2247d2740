import { toClientTokenJson } from '@platform/api-model';
import type { SettingsClient } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { ClientTokenSchema, CreateClientTokenBody } from './schemas';

export function authRoutes({ settings }: { settings: SettingsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/auth',
      summary: 'Create a public key limited to some scopes, for client-side use',
      tags: ['Auth'],
      resource: 'secretOnly',
      body: CreateClientTokenBody,
      response: { status: 201, description: 'The public key', schema: ClientTokenSchema },
      handler: async ({ body, client, call }) =>
        toClientTokenJson(await settings.createClientToken({ clientId: client.clientId, scope: body.scope, expires: body.expires }, call)),
    }),
  ];
}
