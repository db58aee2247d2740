import { pageMeta, requireClientId, toPage, type PageInput, type PageMeta } from '@platform/kit';
import { type Webhook } from '../domain/webhook';
import type { WebhookDeps } from './deps';

export async function listWebhooks(
  deps: Pick<WebhookDeps, 'pool' | 'webhooks'>,
  input: { clientId: string; page?: PageInput },
): Promise<{ items: Webhook[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const page = toPage(input.page);
  const { items, totalItems } = await deps.webhooks.list(deps.pool, clientId, page);
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
