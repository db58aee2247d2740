import { toWebhookJson, WEBHOOK_EVENT_TYPES } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { Webhook } from '../domain/webhook';
import { toWebhookMessage } from '../wire/webhookMessages';

/** Published for other contexts; the fan-out never delivers them (they are not in the public catalogue). */
export const WEBHOOK_EVENTS = WEBHOOK_EVENT_TYPES;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS];

/**
 * Written in the transaction of the change, with the webhook as it is after it, in the public JSON of the REST API
 * (the gateway's mapper applied to the gRPC answer): its public key, never its private key.
 */
export async function recordWebhookEvent(tx: Queryable, type: WebhookEventType, webhook: Webhook, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: webhook.clientId, data: toWebhookJson(toWebhookMessage(webhook)), occurredAt });
}
