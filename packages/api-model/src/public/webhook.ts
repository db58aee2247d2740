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

/**
 * The answer of a registration: the webhook with, this once, its Standard Webhooks secret (`whsec_...`), which no
 * other answer and no event carries. Absent only from the replay of a registration recorded before secrets existed.
 */
export type CreatedWebhookJson = WebhookJson & { secret?: string };

export function toCreatedWebhookJson(webhook: webhooks.Webhook): CreatedWebhookJson {
  const json = toWebhookJson(webhook);
  return webhook.secret === undefined ? json : { ...json, secret: webhook.secret };
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

/** The answer of a recovery (202): the window whose events are delivered again, and how many it holds. */
export interface WebhookRecoveryJson {
  webhookId: string;
  since: string;
  until: string;
  events: number;
}

export function toWebhookRecoveryJson(recovery: webhooks.RecoverWebhookResponse): WebhookRecoveryJson {
  return {
    webhookId: recovery.webhookId,
    since: requiredTimestamp(recovery.since, 'since'),
    until: requiredTimestamp(recovery.until, 'until'),
    events: recovery.events,
  };
}

/** The body of a delivery: what a receiver gets. */
export interface WebhookEventJson {
  id: string;
  createdAt: string;
  object: string;
  event: string;
  apiVersion: number;
  data: Record<string, unknown>;
}

/** One event of the public catalogue (`GET /v1/webhooks/event-types`), with an example of what a receiver gets. */
export interface EventTypeJson {
  name: string;
  object: string;
  description: string;
  example: WebhookEventJson;
}

export function toEventTypeJson(eventType: webhooks.EventType): EventTypeJson {
  if (!eventType.example) throw new AppError('internal', `upstream event type ${eventType.name} without an example`);
  // A Struct upstream: the webhooks service builds it as a delivery body (its own test holds it to that shape).
  return { name: eventType.name, object: eventType.object, description: eventType.description, example: eventType.example as WebhookEventJson };
}
