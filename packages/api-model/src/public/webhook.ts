import type { webhooks } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../enums';
import { requiredTimestamp, timestampOrNull } from './json';

/** A webhook: the answer of /v1/webhooks and the `data` of `webhooks.webhook.*` events. Its private key never appears. */
export interface WebhookJson {
  id: string;
  clientId: string;
  event: string;
  endpoint: string;
  version: number;
  status: boolean;
  /** Ed25519, SPKI in PEM: public, it verifies the deliveries. */
  publicKey: string;
  createdAt: string;
  updatedAt: string;
}

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

export interface DeliveryAttemptJson {
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A delivery of an event to a webhook, with every attempt (REST only: deliveries publish no event). */
export interface DeliveryJson {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  status: DeliveryStatus;
  attempts: DeliveryAttemptJson[];
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

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
