import { DELIVERY_STATUSES, WEBHOOK_LIMITS } from '@platform/api-model';
import { dateTime } from '../../http/fields';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';

const text = (max: number) => z.string({ error: requiredOr('must be a string') }).max(max, `must be at most ${max} characters`);

const event = text(100)
  .min(1, 'must not be empty')
  .openapi({ description: 'A public event name (see the event catalogue) or "*" for every event', example: 'authorized' });
const endpoint = text(WEBHOOK_LIMITS.endpointMaxLength)
  .min(1, 'must not be empty')
  .openapi({ description: "http(s) URL of the receiver; unique among the client's webhooks", example: 'https://store.example.com/webhooks' });
// Some integrators send the version as text ("1.1"); it is a number.
const version = z
  .preprocess((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v), z.number({ error: requiredOr('must be a number') }))
  .openapi({ type: 'number', description: 'API version the webhook implements', example: 1.1 });
const status = z.boolean({ error: requiredOr('must be true or false') }).openapi({ description: 'Active or not' });

export const CreateWebhookBody = z
  .object({ event, endpoint, version: version.optional().openapi({ description: '1 when absent' }), status: status.optional().openapi({ description: 'true when absent' }) })
  .openapi('CreateWebhookRequest');

export const UpdateWebhookBody = z
  .object({ event: event.optional(), endpoint: endpoint.optional(), version: version.optional(), status: status.optional() })
  .openapi('UpdateWebhookRequest');

export const WebhookParams = z.object({ id: z.string().min(1).max(200) });
export const DeliveryParams = z.object({ id: z.string().min(1).max(200), deliveryId: z.string().min(1).max(200) });
export const ListWebhooksQuery = paginationQuery;
export const ListDeliveriesQuery = paginationQuery;

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

export const WebhookListSchema = listSchema(WebhookSchema, 'WebhookList');

const secret = z.string().openapi({
  description:
    'Standard Webhooks secret ("whsec_" and the base64 of 32 bytes): verifies the v1 (HMAC-SHA256) signatures of webhook-signature, ' +
    'e.g. with the standardwebhooks libraries. Answered once: keep it; rotate-secret makes a new one.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5Mm6B8pAxRg=',
});

export const CreatedWebhookSchema = WebhookSchema.extend({ secret: secret.optional() }).openapi('CreatedWebhook');
export const WebhookSecretSchema = z.object({ secret }).openapi('WebhookSecret');

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

export const DeliveryListSchema = listSchema(DeliverySchema, 'WebhookDeliveryList');

export const RecoverWebhookBody = z
  .object({
    since: dateTime().openapi({
      description: 'The events of the webhook from this time on are delivered again: not in the future, at most 14 days back',
      example: '2026-11-21T00:00:00.000Z',
    }),
  })
  .openapi('RecoverWebhookRequest');

export const WebhookRecoverySchema = z
  .object({
    webhookId: z.string(),
    since: z.iso.datetime(),
    until: z.iso.datetime().openapi({ description: 'When the recovery was asked for: later events reach the webhook as usual' }),
    events: z.int().openapi({ description: 'The events in the window: each is delivered again once, with its original id' }),
  })
  .openapi('WebhookRecovery');

export const EventTypeSchema = z
  .object({
    name: z.string().openapi({ description: 'The event name a webhook registers for', example: 'authorized' }),
    object: z.string().openapi({ description: 'What data is', example: 'transaction' }),
    description: z.string(),
    example: z
      .object({
        id: z.string(),
        createdAt: z.iso.datetime(),
        object: z.string(),
        event: z.string(),
        apiVersion: z.number(),
        data: z.record(z.string(), z.unknown()),
      })
      .openapi({ description: 'A body as a receiver gets it; data as the REST API shows the resource' }),
  })
  .openapi('WebhookEventType');

export const EventTypeListSchema = z.object({ items: z.array(EventTypeSchema) }).openapi('WebhookEventTypeList');

export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookBody>;
export type RecoverWebhookInput = z.infer<typeof RecoverWebhookBody>;
