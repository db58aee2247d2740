import type { webhooks } from '@platform/contracts';
import type { CreateWebhookInput, RecoverWebhookInput, UpdateWebhookInput } from './schemas';

export function toCreateWebhookRequest(clientId: string, input: CreateWebhookInput): webhooks.CreateWebhookRequest {
  return { clientId, event: input.event, endpoint: input.endpoint, version: input.version, status: input.status };
}

export function toUpdateWebhookRequest(clientId: string, id: string, input: UpdateWebhookInput): webhooks.UpdateWebhookRequest {
  return { clientId, id, event: input.event, endpoint: input.endpoint, version: input.version, status: input.status };
}

export function toRecoverWebhookRequest(clientId: string, id: string, input: RecoverWebhookInput): webhooks.RecoverWebhookRequest {
  return { clientId, id, since: input.since };
}
