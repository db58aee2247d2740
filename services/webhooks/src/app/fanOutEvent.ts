import { isUuid } from '@platform/kit';
import { randomUUID } from 'node:crypto';
import type { DomainEvent, Queryable } from '@platform/kit';
import { publicKindOf, toPublicEvent } from '../domain/publicEvents';
import type { WebhookDeps } from './deps';
import { scheduleDelivery } from './deliveryJob';

/**
 * Turns one domain event into a delivery for every active webhook of the event's client that listens to it, each
 * with its job due now, all in the consumer's transaction: the event is acknowledged only once every delivery it
 * owes is stored. Events of the webhooks context and other internal events owe nothing.
 */
export async function fanOutEvent(deps: Pick<WebhookDeps, 'webhooks' | 'deliveries' | 'clock'>, event: DomainEvent, tx: Queryable): Promise<number> {
  const kind = publicKindOf(event.type);
  if (!kind || !isUuid(event.clientId) || !isUuid(event.id)) return 0;
  const occurredAt = new Date(event.occurredAt);
  if (Number.isNaN(occurredAt.getTime())) return 0;
  const listeners = await deps.webhooks.listeners(tx, event.clientId.toLowerCase(), kind.event, occurredAt);
  const now = deps.clock.now();
  let created = 0;
  for (const webhook of listeners) {
    const body = JSON.stringify(toPublicEvent(event, webhook.version));
    const id = randomUUID();
    const inserted = await deps.deliveries.insert(tx, {
      id,
      clientId: webhook.clientId,
      webhookId: webhook.id,
      eventId: event.id,
      event: kind.event,
      body,
      at: now,
    });
    if (!inserted) continue;
    await scheduleDelivery(tx, { deliveryId: id, clientId: webhook.clientId, round: 0 }, now);
    created++;
  }
  return created;
}
