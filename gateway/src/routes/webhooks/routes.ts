import { toDeliveryJson, toWebhookJson } from '@platform/api-model';
import type { WebhooksClient } from '../../clients';
import { toList, toPageRequest } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { toCreateWebhookRequest, toUpdateWebhookRequest } from './mapping';
import {
  CreateWebhookBody,
  DeliveryListSchema,
  DeliveryParams,
  DeliverySchema,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  WebhookListSchema,
  WebhookParams,
  WebhookSchema,
} from './schemas';

const tags = ['Webhooks'];

const DELIVERY_NOTE =
  'Each delivery is a POST of {id, createdAt, object, event, apiVersion, data} with X-Plug-Date, X-Plug-Signature (hex Ed25519 over ' +
  '"<X-Plug-Date>\\n<body>"), x-idempotency-key, and the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature ' +
  '("v1a,<base64 Ed25519 over <id>.<timestamp>.<body>>"), all verifiable with the webhook publicKey. A 2xx within 15 s is a success; ' +
  'otherwise it is retried after 5 min, 45 min, 6 h, 1 d, 2 d and 4 d; a 410 disables the webhook.';

export function webhookRoutes({ webhooks }: { webhooks: WebhooksClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/webhooks',
      summary: 'Register a webhook',
      description: `One webhook per event ("*" for all); the endpoint is unique among the client's webhooks (409; another client may use the same URL). ${DELIVERY_NOTE}`,
      tags,
      resource: 'webhooks',
      body: CreateWebhookBody,
      errors: [409],
      response: { status: 201, description: 'The webhook, with the public key that verifies its deliveries', schema: WebhookSchema },
      handler: async ({ client, body, call }) => toWebhookJson(await webhooks.createWebhook(toCreateWebhookRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks',
      summary: 'List webhooks, newest first',
      tags,
      resource: 'webhooks',
      query: ListWebhooksQuery,
      response: { status: 200, description: 'A page of webhooks', schema: WebhookListSchema },
      handler: async ({ client, query, call }) => {
        const page = await webhooks.listWebhooks({ clientId: client.clientId, page: toPageRequest(query) }, call);
        return toList(page.items.map(toWebhookJson), page.meta);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/{id}',
      summary: 'Get a webhook',
      tags,
      resource: 'webhooks',
      params: WebhookParams,
      response: { status: 200, description: 'The webhook', schema: WebhookSchema },
      handler: async ({ client, params, call }) => toWebhookJson(await webhooks.getWebhook({ clientId: client.clientId, id: params.id }, call)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/webhooks/{id}',
      summary: 'Update a webhook (event, endpoint, version, status)',
      tags,
      resource: 'webhooks',
      params: WebhookParams,
      body: UpdateWebhookBody,
      errors: [409],
      response: { status: 200, description: 'The updated webhook', schema: WebhookSchema },
      handler: async ({ client, params, body, call }) =>
        toWebhookJson(await webhooks.updateWebhook(toUpdateWebhookRequest(client.clientId, params.id, body), call)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/webhooks/{id}',
      summary: 'Delete a webhook and its delivery log',
      tags,
      resource: 'webhooks',
      params: WebhookParams,
      response: { status: 204, description: 'Deleted' },
      handler: async ({ client, params, call }) => {
        await webhooks.deleteWebhook({ clientId: client.clientId, id: params.id }, call);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/{id}/deliveries',
      summary: "List a webhook's deliveries, newest first, with every attempt",
      tags,
      resource: 'webhooks',
      params: WebhookParams,
      query: ListDeliveriesQuery,
      response: { status: 200, description: 'A page of deliveries', schema: DeliveryListSchema },
      handler: async ({ client, params, query, call }) => {
        const page = await webhooks.listDeliveries({ clientId: client.clientId, webhookId: params.id, page: toPageRequest(query) }, call);
        return toList(page.items.map(toDeliveryJson), page.meta);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
      summary: 'Send a delivery again now, with the same event id',
      description: 'Also for a delivery that succeeded. The delivery is pending again and follows the retry schedule from its start.',
      tags,
      resource: 'webhooks',
      params: DeliveryParams,
      errors: [422],
      response: { status: 201, description: 'The delivery, pending', schema: DeliverySchema },
      handler: async ({ client, params, call }) =>
        toDeliveryJson(await webhooks.retryDelivery({ clientId: client.clientId, webhookId: params.id, deliveryId: params.deliveryId }, call)),
    }),
  ];
}
