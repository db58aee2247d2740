import { errors, requireClientId, withIdempotency } from '@platform/kit';
import type { Delivery } from '../domain/delivery';
import { deliveryCodec } from '../wire/webhookMessages';
import type { WebhookDeps } from './deps';
import { scheduleDelivery } from './deliveryJob';

export const RETRY_DELIVERY_OPERATION = 'webhooks.retry_delivery';

/**
 * Sends a delivery's event again now, with the same event id and body, whatever its status: the delivery becomes
 * pending and follows the retry schedule from its start. A job still waiting from the earlier round finds the round
 * changed and does nothing.
 */
export async function retryDelivery(
  deps: WebhookDeps,
  input: { clientId: string; webhookId: string; deliveryId: string },
  idempotencyKey?: string,
): Promise<Delivery> {
  const clientId = requireClientId(input.clientId);
  const delivery = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: RETRY_DELIVERY_OPERATION, request: input, codec: deliveryCodec },
    async (tx) => {
      const webhook = await deps.webhooks.findById(tx, clientId, input.webhookId, { forUpdate: true });
      if (!webhook) throw errors.notFound('Webhook', input.webhookId);
      const current = await deps.deliveries.findById(tx, clientId, webhook.id, input.deliveryId, { forUpdate: true });
      if (!current) throw errors.notFound('Delivery', input.deliveryId);
      if (!webhook.active) throw errors.businessRule('webhook_disabled', 'The webhook is disabled: enable it (status true) before retrying');
      const now = deps.clock.now();
      const round = await deps.deliveries.restart(tx, clientId, current.id, now);
      await scheduleDelivery(tx, { deliveryId: current.id, clientId, round }, now);
      return (await deps.deliveries.findById(tx, clientId, webhook.id, current.id))!;
    },
  );
  return delivery;
}
