import { toCreatedWebhookJson, toDeliveryJson, toEventTypeJson, toWebhookJson, toWebhookRecoveryJson } from '@platform/api-model';
import type { WebhooksClient } from '../../clients';
import { toList, toPageRequest } from '../../http/pagination';
import { defineRoute, type RouteDefinition } from '../../http/route';
import { TAGS } from '../../openapi/tags';
import { CREATE_WEBHOOK, CREATED_WEBHOOK } from './examples';
import { toCreateWebhookRequest, toRecoverWebhookRequest, toUpdateWebhookRequest } from './mapping';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  DeliveryListSchema,
  DeliveryParams,
  DeliverySchema,
  EventTypeListSchema,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  RecoverWebhookBody,
  UpdateWebhookBody,
  WebhookListSchema,
  WebhookParams,
  WebhookRecoverySchema,
  WebhookSchema,
  WebhookSecretSchema,
} from './schemas';

const tags = [TAGS.webhooks] as const;

const DELIVERY_NOTE =
  'Each delivery is a POST of {id, createdAt, object, event, apiVersion, data} with X-Plug-Date, X-Plug-Signature (hex Ed25519 over ' +
  '"<X-Plug-Date>\\n<body>"), x-idempotency-key, and the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature ' +
  '("v1,<base64 HMAC-SHA256 over <id>.<timestamp>.<body> under the webhook secret> v1a,<base64 Ed25519 over the same, verifiable ' +
  'with the webhook publicKey>"; during a secret rotation, a v1 for each secret). A 2xx within 15 s is a success; ' +
  'otherwise it is retried after 5 min, 45 min, 6 h, 1 d, 2 d and 4 d, or after the wait a 429 or 503 asks for with Retry-After (at most ' +
  '1 h); a 410 disables the webhook.';

export function webhookRoutes({ webhooks }: { webhooks: WebhooksClient }): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/webhooks',
      operationId: 'createWebhook',
      summary: 'Register a webhook',
      description:
        `One webhook per event ("*" for all); the endpoint is unique among the client's webhooks (409; another client may use the same URL). ` +
        'The endpoint must reach a public address (400 on `endpoint`): loopback and private networks only for a sandbox client, on a platform ' +
        `whose operator allows them (local runs). ${DELIVERY_NOTE}`,
      tags,
      resource: 'webhooks',
      body: CreateWebhookBody,
      errors: [409, 422],
      response: {
        status: 201,
        description: 'The webhook, with the public key and, in this answer only, the secret that verify its deliveries',
        schema: CreatedWebhookSchema,
      },
      examples: { request: { authorized: { summary: 'Hear of every authorized charge', value: CREATE_WEBHOOK } }, response: { webhook: { summary: 'The webhook with its secret, shown this once', value: CREATED_WEBHOOK } } },
      handler: async ({ client, body, call }) => toCreatedWebhookJson(await webhooks.createWebhook(toCreateWebhookRequest(client.clientId, body), call)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks',
      operationId: 'listWebhooks',
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
    // Before /v1/webhooks/{id}, so `event-types` is never read as a webhook id.
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/event-types',
      operationId: 'listWebhookEventTypes',
      summary: 'List the event names a webhook can register for',
      description: 'The whole catalogue in one answer, in the order of the event catalogue: each name with what it means and an example body.',
      tags,
      resource: 'webhooks',
      response: { status: 200, description: 'The event catalogue', schema: EventTypeListSchema },
      handler: async ({ client, call }) => ({ items: (await webhooks.listEventTypes({ clientId: client.clientId }, call)).items.map(toEventTypeJson) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/{id}',
      operationId: 'getWebhook',
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
      operationId: 'updateWebhook',
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
      operationId: 'deleteWebhook',
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
      operationId: 'listWebhookDeliveries',
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
      operationId: 'retryWebhookDelivery',
      summary: 'Send a delivery again now, with the same event id',
      description: 'Also for a delivery that succeeded. The delivery is pending again and follows the retry schedule from its start.',
      tags,
      resource: 'webhooks',
      params: DeliveryParams,
      errors: [409, 422],
      response: { status: 201, description: 'The delivery, pending', schema: DeliverySchema },
      handler: async ({ client, params, call }) =>
        toDeliveryJson(await webhooks.retryDelivery({ clientId: client.clientId, webhookId: params.id, deliveryId: params.deliveryId }, call)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{id}/rotate-secret',
      operationId: 'rotateWebhookSecret',
      summary: 'Replace the webhook secret',
      description:
        'Answers the new secret, once. For 24 hours every delivery carries a v1 signature for the new and the replaced secret, so the ' +
        'receiver can switch without refusing one; after that only for the new one. A rotation within those 24 hours replaces the ' +
        'newest secret again: the one it replaces keeps signing for 24 hours and the one before stops at once.',
      tags,
      resource: 'webhooks',
      params: WebhookParams,
      response: { status: 200, description: 'The new secret', schema: WebhookSecretSchema },
      errors: [409, 422],
      handler: async ({ client, params, call }) => {
        const rotated = await webhooks.rotateWebhookSecret({ clientId: client.clientId, id: params.id }, call);
        return { secret: rotated.secret };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/{id}/recover',
      operationId: 'recoverWebhookEvents',
      summary: "Deliver the webhook's events since a time again, with their original ids",
      description:
        'Every event the webhook has a delivery of from `since` (at most 14 days back) until now is delivered again, through its delivery: ' +
        'same event id and body, signed at each attempt, with its attempts in the delivery log and the retry schedule. The deliveries are ' +
        'sent in the background at a pace that leaves room for live ones; one already waiting for its first attempt is not sent twice. ' +
        'Events from before the webhook was registered, or from while it was disabled, had no delivery and are not sent. A disabled webhook: 422.',
      tags,
      resource: 'webhooks',
      params: WebhookParams,
      body: RecoverWebhookBody,
      errors: [409, 422],
      response: { status: 202, description: 'The recovery is under way', schema: WebhookRecoverySchema },
      handler: async ({ client, params, body, call }) => toWebhookRecoveryJson(await webhooks.recoverWebhook(toRecoverWebhookRequest(client.clientId, params.id, body), call)),
    }),
  ];
}
