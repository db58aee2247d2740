import { errors, requireClientId } from '@platform/kit';
import { type Webhook } from '../domain/webhook';
import type { WebhookDeps } from './deps';

export async function getWebhook(deps: Pick<WebhookDeps, 'pool' | 'webhooks'>, input: { clientId: string; id: string }): Promise<Webhook> {
  const clientId = requireClientId(input.clientId);
  const webhook = await deps.webhooks.findById(deps.pool, clientId, input.id);
  if (!webhook) throw errors.notFound('Webhook', input.id);
  return webhook;
}
