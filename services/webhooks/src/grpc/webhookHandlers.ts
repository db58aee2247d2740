import type { webhooks } from '@platform/contracts';
import type { Handlers } from '@platform/kit';
import { createWebhook } from '../app/createWebhook';
import { deleteWebhook } from '../app/deleteWebhook';
import type { WebhookDeps } from '../app/deps';
import { listEventTypes } from '../app/eventTypes';
import { getWebhook } from '../app/getWebhook';
import { listDeliveries } from '../app/listDeliveries';
import { listWebhooks } from '../app/listWebhooks';
import { recoverWebhook } from '../app/recoverWebhook';
import { retryDelivery } from '../app/retryDelivery';
import { rotateSecret } from '../app/rotateSecret';
import { updateWebhook } from '../app/updateWebhook';
import { toDeliveryMessage, toEventTypeMessage, toRecoveryMessage, toWebhookMessage } from '../wire/webhookMessages';

export function createWebhookHandlers(deps: WebhookDeps): Handlers<typeof webhooks.WebhooksServiceService> {
  return {
    createWebhook: async (request, ctx) => {
      const { webhook, secret } = await createWebhook(deps, request, ctx.idempotencyKey);
      // The one answer that carries the secret.
      return { ...toWebhookMessage(webhook), secret: secret ?? undefined };
    },
    listWebhooks: async (request) => {
      const { items, meta } = await listWebhooks(deps, request);
      return { items: items.map(toWebhookMessage), meta };
    },
    getWebhook: async (request) => toWebhookMessage(await getWebhook(deps, request)),
    updateWebhook: async (request) => toWebhookMessage(await updateWebhook(deps, request)),
    deleteWebhook: async (request) => {
      await deleteWebhook(deps, request);
      return {};
    },
    listDeliveries: async (request) => {
      const { items, meta } = await listDeliveries(deps, request);
      return { items: items.map(toDeliveryMessage), meta };
    },
    retryDelivery: async (request, ctx) => toDeliveryMessage(await retryDelivery(deps, request, ctx.idempotencyKey)),
    rotateWebhookSecret: async (request, ctx) => rotateSecret(deps, request, ctx.idempotencyKey),
    recoverWebhook: async (request, ctx) => toRecoveryMessage(await recoverWebhook(deps, request, ctx.idempotencyKey)),
    listEventTypes: async (request) => ({ items: listEventTypes(request).map(toEventTypeMessage) }),
  };
}
