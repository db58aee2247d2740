import { enqueueEvent, type Queryable } from '@platform/kit';
import { webhookToJson, type Webhook } from '../domain/webhook';

/** Published for other contexts; the fan-out never delivers them (they are not in the public catalogue). */
export const WEBHOOK_EVENTS = {
  created: 'webhooks.webhook.created',
  updated: 'webhooks.webhook.updated',
  deleted: 'webhooks.webhook.deleted',
} as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS];

/** Written in the transaction of the change, with the webhook as it is after it (never its keys). */
export async function recordWebhookEvent(tx: Queryable, type: WebhookEventType, webhook: Webhook, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: webhook.clientId, data: webhookToJson(webhook), occurredAt });
}
