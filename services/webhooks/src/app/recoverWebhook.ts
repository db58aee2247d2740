import { errors, requireClientId, withIdempotency } from '@platform/kit';
import { recoverySince, type Recovery } from '../domain/recovery';
import { recoveryCodec } from '../wire/webhookMessages';
import type { WebhookDeps } from './deps';
import { scheduleRecovery } from './recoveryJob';

export const RECOVER_WEBHOOK_OPERATION = 'webhooks.recover_webhook';

/**
 * Delivers every event of the webhook since `since` again, with its original event id: "every event" is every
 * delivery of the webhook created from `since` until now, which is one per event it received (deliveries are
 * unique per webhook and event). Each goes again through its delivery (its attempts join the delivery log, the
 * retry schedule starts over), sent by a job that walks them at a pace (see `walkRecovery`); the answer comes once
 * that job is scheduled. Events the webhook never had a delivery of (those from before it was registered, or from
 * while it was disabled) are not among them.
 */
export async function recoverWebhook(
  deps: WebhookDeps,
  input: { clientId: string; id: string; since?: Date },
  idempotencyKey?: string,
): Promise<Recovery> {
  const clientId = requireClientId(input.clientId);
  const request = { id: input.id, since: input.since && !Number.isNaN(input.since.getTime()) ? input.since.toISOString() : null };
  return withIdempotency(deps.pool, { clientId, key: idempotencyKey, operation: RECOVER_WEBHOOK_OPERATION, request, codec: recoveryCodec }, async (tx) => {
    const now = deps.clock.now();
    // Checked inside: a replay of the same key answers what the first call did, even once `since` has aged.
    const since = recoverySince(input.since, now);
    const webhook = await deps.webhooks.findById(tx, clientId, input.id, { forUpdate: true });
    if (!webhook) throw errors.notFound('Webhook', input.id);
    if (!webhook.active) throw errors.businessRule('webhook_disabled', 'The webhook is disabled: enable it (status true) before recovering its events');
    const window = { clientId, webhookId: webhook.id, since, until: now };
    const events = await deps.deliveries.countInWindow(tx, window);
    await scheduleRecovery(tx, window, now);
    return { webhookId: webhook.id, since, until: now, events };
  });
}
