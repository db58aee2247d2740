import { CreatedWebhookSchema, DeliverySchema, EventTypeSchema, WEBHOOK_LIMITS, WebhookRecoverySchema, WebhookSchema, WebhookSecretSchema } from '@platform/api-model';
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

/** The webhook answers are the API model's schemas. */
export { CreatedWebhookSchema, DeliverySchema, EventTypeSchema, WebhookRecoverySchema, WebhookSchema, WebhookSecretSchema };

export const WebhookListSchema = listSchema(WebhookSchema, 'WebhookList');

export const DeliveryListSchema = listSchema(DeliverySchema, 'WebhookDeliveryList');

export const RecoverWebhookBody = z
  .object({
    since: dateTime().openapi({
      description: 'The events of the webhook from this time on are delivered again: not in the future, at most 14 days back',
      example: '2026-11-21T00:00:00.000Z',
    }),
  })
  .openapi('RecoverWebhookRequest');

export const EventTypeListSchema = z.object({ items: z.array(EventTypeSchema) }).openapi('WebhookEventTypeList');

export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookBody>;
export type RecoverWebhookInput = z.infer<typeof RecoverWebhookBody>;
