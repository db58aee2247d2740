import { errors, pageMeta, requireClientId, toPage, withSnapshot, type PageInput, type PageMeta } from '@platform/kit';
import type { Delivery } from '../domain/delivery';
import type { WebhookDeps } from './deps';

/** The delivery log of one webhook, newest first. */
export async function listDeliveries(
  deps: Pick<WebhookDeps, 'pool' | 'webhooks' | 'deliveries'>,
  input: { clientId: string; webhookId: string; page?: PageInput },
): Promise<{ items: Delivery[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  if (!(await deps.webhooks.findById(deps.pool, clientId, input.webhookId))) throw errors.notFound('Webhook', input.webhookId);
  const page = toPage(input.page);
  // One snapshot: a delivery attempted meanwhile shows with its attempt and the outcome stored with it, or with neither.
  const { items, totalItems } = await withSnapshot(deps.pool, (tx) => deps.deliveries.list(tx, clientId, input.webhookId, page));
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
