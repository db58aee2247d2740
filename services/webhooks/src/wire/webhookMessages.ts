import { webhooks } from '@platform/contracts';
import type { IdempotencyCodec } from '@platform/kit';
import { isDeliveryStatus, type Delivery } from '../domain/delivery';
import type { EventType } from '../domain/eventType';
import type { Recovery } from '../domain/recovery';
import type { Webhook } from '../domain/webhook';

export function toWebhookMessage(webhook: Webhook): webhooks.Webhook {
  return {
    id: webhook.id,
    clientId: webhook.clientId,
    event: webhook.event,
    endpoint: webhook.endpoint,
    version: webhook.version,
    status: webhook.active,
    publicKey: webhook.publicKey,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

export function fromWebhookMessage(message: webhooks.Webhook): Webhook {
  return {
    id: message.id,
    clientId: message.clientId,
    event: message.event,
    endpoint: message.endpoint,
    version: message.version,
    active: message.status,
    publicKey: message.publicKey,
    createdAt: message.createdAt ?? new Date(0),
    updatedAt: message.updatedAt ?? new Date(0),
  };
}

export function toDeliveryMessage(delivery: Delivery): webhooks.Delivery {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts.map((a) => ({
      attemptedAt: a.attemptedAt,
      statusCode: a.statusCode ?? undefined,
      durationMs: a.durationMs,
      error: a.error ?? undefined,
    })),
    nextAttemptAt: delivery.nextAttemptAt ?? undefined,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}

function fromDeliveryMessage(message: webhooks.Delivery): Delivery {
  if (!isDeliveryStatus(message.status)) throw new Error(`stored delivery ${message.id} has status ${message.status}`);
  return {
    id: message.id,
    webhookId: message.webhookId,
    eventId: message.eventId,
    event: message.event,
    status: message.status,
    attempts: message.attempts.map((a) => ({
      attemptedAt: a.attemptedAt ?? new Date(0),
      statusCode: a.statusCode ?? null,
      durationMs: a.durationMs,
      error: a.error ?? null,
    })),
    nextAttemptAt: message.nextAttemptAt ?? null,
    createdAt: message.createdAt ?? new Date(0),
    updatedAt: message.updatedAt ?? new Date(0),
  };
}

/** The idempotency record keeps the answer as the wire message, so a replay answers what the first call did. */
export const deliveryCodec: IdempotencyCodec<Delivery> = {
  encode: (delivery) => webhooks.Delivery.encode(toDeliveryMessage(delivery)).finish(),
  decode: (bytes) => fromDeliveryMessage(webhooks.Delivery.decode(bytes)),
};

export function toRecoveryMessage(recovery: Recovery): webhooks.RecoverWebhookResponse {
  return { webhookId: recovery.webhookId, since: recovery.since, until: recovery.until, events: recovery.events };
}

export const recoveryCodec: IdempotencyCodec<Recovery> = {
  encode: (recovery) => webhooks.RecoverWebhookResponse.encode(toRecoveryMessage(recovery)).finish(),
  decode: (bytes) => {
    const message = webhooks.RecoverWebhookResponse.decode(bytes);
    return { webhookId: message.webhookId, since: message.since ?? new Date(0), until: message.until ?? new Date(0), events: message.events };
  },
};

export function toEventTypeMessage(eventType: EventType): webhooks.EventType {
  return { name: eventType.name, object: eventType.object, description: eventType.description, example: { ...eventType.example } };
}
