import { errors, requireClientId, withTransaction } from '@platform/kit';
import { applyChanges, namesPrivateHost, parseWebhookChanges, type Webhook, type WebhookChangesInput } from '../domain/webhook';
import { recordWebhookEvent, WEBHOOK_EVENTS } from '../events/webhookEvents';
import { privateTargetsAllowed } from './clientsPort';
import type { WebhookDeps } from './deps';

export async function updateWebhook(deps: WebhookDeps, input: WebhookChangesInput & { clientId: string; id: string }): Promise<Webhook> {
  const clientId = requireClientId(input.clientId);
  const allowPrivateTargets = namesPrivateHost(input.endpoint) && (await privateTargetsAllowed(deps, clientId));
  const changes = parseWebhookChanges(input, { allowPrivateTargets });
  const updated = await withTransaction(deps.pool, async (tx) => {
    const current = await deps.webhooks.findById(tx, clientId, input.id, { forUpdate: true });
    if (!current) throw errors.notFound('Webhook', input.id);
    const now = deps.clock.now();
    const saved = await deps.webhooks.update(tx, applyChanges(current, changes, now));
    if (!saved) throw errors.notFound('Webhook', input.id);
    await recordWebhookEvent(tx, WEBHOOK_EVENTS.updated, saved, now);
    return saved;
  });
  deps.outbox?.kick();
  return updated;
}
