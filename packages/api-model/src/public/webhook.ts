import type { webhooks } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { DELIVERY_STATUSES } from '../enums';
import { z } from '../zod';
import { requiredTimestamp, timestampOrNull } from './json';

/** A webhook: the answer of /v1/webhooks and the `data` of `webhooks.webhook.*` events. Its private key never appears. */
export const WebhookSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    event: z.string(),
    endpoint: z.string(),
    version: z.number(),
    status: z.boolean(),
    publicKey: z.string().openapi({
      description: 'Ed25519 public key, SPKI in PEM: verifies X-Plug-Signature and the v1a signature of webhook-signature (crypto.createPublicKey takes it as it is)',
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Webhook');

export type WebhookJson = z.infer<typeof WebhookSchema>;

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

const secret = z.string().openapi({
  description:
    'Standard Webhooks secret ("whsec_" and the base64 of 32 bytes): verifies the v1 (HMAC-SHA256) signatures of webhook-signature, ' +
    'e.g. with the standardwebhooks libraries. Answered once: keep it; rotate-secret makes a new one.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5Mm6B8pAxRg=',
});

/**
 * The answer of a registration: the webhook with, this once, its Standard Webhooks secret (`whsec_...`), which no
 * other answer and no event carries. Absent only from the replay of a registration recorded before secrets existed.
 */
export const CreatedWebhookSchema = WebhookSchema.extend({ secret: secret.optional() }).openapi('CreatedWebhook');
export const WebhookSecretSchema = z.object({ secret }).openapi('WebhookSecret');

export type CreatedWebhookJson = z.infer<typeof CreatedWebhookSchema>;

export function toCreatedWebhookJson(webhook: webhooks.Webhook): CreatedWebhookJson {
  const json = toWebhookJson(webhook);
  return webhook.secret === undefined ? json : { ...json, secret: webhook.secret };
}

/** A delivery of an event to a webhook, with every attempt (REST only: deliveries publish no event). */
export const DeliverySchema = z
  .object({
    id: z.string(),
    webhookId: z.string(),
    eventId: z.string().openapi({ description: 'The event id: webhook-id and x-idempotency-key of every attempt' }),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(
      z
        .object({
          attemptedAt: z.iso.datetime(),
          statusCode: z.int().nullable().openapi({ description: "The receiver's HTTP status; null when no answer came" }),
          durationMs: z.int(),
          error: z.string().nullable(),
        })
        .openapi('DeliveryAttempt'),
    ),
    nextAttemptAt: z.iso.datetime().nullable().openapi({ description: 'null once the delivery succeeded or failed' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('WebhookDelivery');

export type DeliveryJson = z.infer<typeof DeliverySchema>;
export type DeliveryAttemptJson = DeliveryJson['attempts'][number];

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
export const WebhookRecoverySchema = z
  .object({
    webhookId: z.string(),
    since: z.iso.datetime(),
    until: z.iso.datetime().openapi({ description: 'When the recovery was asked for: later events reach the webhook as usual' }),
    events: z.int().openapi({ description: 'The events in the window: each is delivered again once, with its original id' }),
  })
  .openapi('WebhookRecovery');

export type WebhookRecoveryJson = z.infer<typeof WebhookRecoverySchema>;

export function toWebhookRecoveryJson(recovery: webhooks.RecoverWebhookResponse): WebhookRecoveryJson {
  return {
    webhookId: recovery.webhookId,
    since: requiredTimestamp(recovery.since, 'since'),
    until: requiredTimestamp(recovery.until, 'until'),
    events: recovery.events,
  };
}

/** The body of a delivery: what a receiver gets. */
const WebhookEventSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  object: z.string(),
  event: z.string(),
  apiVersion: z.number(),
  data: z.record(z.string(), z.unknown()),
});

export type WebhookEventJson = z.infer<typeof WebhookEventSchema>;

/** One event of the public catalogue (`GET /v1/webhooks/event-types`), with an example of what a receiver gets. */
export const EventTypeSchema = z
  .object({
    name: z.string().openapi({ description: 'The event name a webhook registers for', example: 'authorized' }),
    object: z.string().openapi({ description: 'What data is', example: 'transaction' }),
    description: z.string(),
    example: WebhookEventSchema.openapi({ description: 'A body as a receiver gets it; data as the REST API shows the resource' }),
  })
  .openapi('WebhookEventType');

export type EventTypeJson = z.infer<typeof EventTypeSchema>;

export function toEventTypeJson(eventType: webhooks.EventType): EventTypeJson {
  if (!eventType.example) throw new AppError('internal', `upstream event type ${eventType.name} without an example`);
  // A Struct upstream: the webhooks service builds it as a delivery body (its own test holds it to that shape).
  return { name: eventType.name, object: eventType.object, description: eventType.description, example: eventType.example as WebhookEventJson };
}
