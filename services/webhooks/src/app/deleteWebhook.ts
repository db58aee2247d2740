import { errors, requireClientId, withTransaction } from '@platform/kit';
import { recordWebhookEvent, WEBHOOK_EVENTS } from '../events/webhookEvents';
import type { WebhookDeps } from './deps';

/**
 * Removes the registration with its delivery log and frees its event and endpoint. Deliveries still pending are
 * removed too: their jobs find nothing left to send.
 */
export async function deleteWebhook(deps: WebhookDeps, input: { clientId: string; id: string }): Promise<void> {
  const clientId = requireClientId(input.clientId);
  await withTransaction(deps.pool, async (tx) => {
    const deleted = await deps.webhooks.delete(tx, clientId, input.id);
    if (!deleted) throw errors.notFound('Webhook', input.id);
    await recordWebhookEvent(tx, WEBHOOK_EVENTS.deleted, deleted, deps.clock.now());
  });
  deps.outbox?.kick();
}
