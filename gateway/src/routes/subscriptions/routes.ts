import { toSubscriptionSettingsJson } from '@platform/api-model';
import type { SettingsClient } from '../../clients';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { toUpdateSubscriptionSettingsRequest } from './mapping';
import { SubscriptionSettingsSchema, UpdateSubscriptionSettingsBody } from './schemas';

const tags = ['Subscriptions'];

export function subscriptionRoutes({ settings }: { settings: SettingsClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/subscriptions/settings',
      summary: 'Get subscription settings',
      tags,
      resource: 'subscriptions',
      response: { status: 200, description: 'The settings (the defaults until changed)', schema: SubscriptionSettingsSchema },
      handler: async ({ client, call }) => toSubscriptionSettingsJson(await settings.getSubscriptionSettings({ clientId: client.clientId }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/subscriptions/settings',
      summary: 'Update subscription settings',
      tags,
      resource: 'subscriptions',
      body: UpdateSubscriptionSettingsBody,
      errors: [422],
      response: { status: 200, description: 'The updated settings', schema: SubscriptionSettingsSchema },
      handler: async ({ client, body, call }) =>
        toSubscriptionSettingsJson(await settings.updateSubscriptionSettings(toUpdateSubscriptionSettingsRequest(client.clientId, body), call)),
    }),
  ];
}
