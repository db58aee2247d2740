import type { webhooks } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { requiredTimestamp, timestampOrNull } from '../../http/json';
import type { CreateWebhookInput, DeliveryJson, UpdateWebhookInput, WebhookJson } from './schemas';

export function toWebhookJson(webhook: webhooks.Webhook): WebhookJson {
  return {
    id: webhook.id,
    clientId: webhook.clientId,
    event: webhook.event,
    endpoint: webhook.endpoint,
    version: webhook.version,
    status: webhook.status,
    publicKey: webhook.publicKey,
    createdAt: requiredTimestamp(webhook.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(webhook.updatedAt, 'updatedAt'),
  };
}

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export function toDeliveryJson(delivery: webhooks.Delivery): DeliveryJson {
  const status = DELIVERY_STATUSES.find((s) => s === delivery.status);
  if (!status) throw new AppError('internal', `upstream delivery with status ${delivery.status}`);
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    event: delivery.event,
    status,
    attempts: delivery.attempts.map((a) => ({
      attemptedAt: requiredTimestamp(a.attemptedAt, 'attemptedAt'),
      statusCode: a.statusCode ?? null,
      durationMs: a.durationMs,
      error: a.error ?? null,
    })),
    nextAttemptAt: timestampOrNull(delivery.nextAttemptAt),
    createdAt: requiredTimestamp(delivery.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(delivery.updatedAt, 'updatedAt'),
  };
}

export function toCreateWebhookRequest(clientId: string, input: CreateWebhookInput): webhooks.CreateWebhookRequest {
  return { clientId, event: input.event, endpoint: input.endpoint, version: input.version, status: input.status };
}

export function toUpdateWebhookRequest(clientId: string, id: string, input: UpdateWebhookInput): webhooks.UpdateWebhookRequest {
  return { clientId, id, event: input.event, endpoint: input.endpoint, version: input.version, status: input.status };
}
