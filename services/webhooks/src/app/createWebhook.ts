import { randomUUID } from 'node:crypto';
import { requireClientId, withIdempotency } from '@platform/kit';
import { newSigningKeyPair } from '../domain/signatures';
import { parseNewWebhook, type NewWebhookInput, type Webhook } from '../domain/webhook';
import { recordWebhookEvent, WEBHOOK_EVENTS } from '../events/webhookEvents';
import { webhookCodec } from '../grpc/webhookMessages';
import type { WebhookDeps } from './deps';

export const CREATE_WEBHOOK_OPERATION = 'webhooks.create';

/** Registers a webhook with a signing key pair of its own; only the public key ever leaves the service. */
export async function createWebhook(
  deps: WebhookDeps,
  command: NewWebhookInput & { clientId: string },
  idempotencyKey?: string,
): Promise<Webhook> {
  const clientId = requireClientId(command.clientId);
  const fields = parseNewWebhook(command, { allowPrivateTargets: deps.allowPrivateTargets });
  const created = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: CREATE_WEBHOOK_OPERATION, request: command, codec: webhookCodec },
    async (tx) => {
      const id = randomUUID();
      const keys = newSigningKeyPair();
      const now = deps.clock.now();
      const webhook = await deps.webhooks.insert(
        tx,
        { id, clientId, ...fields, publicKey: keys.publicKey, createdAt: now, updatedAt: now },
        deps.sealer.seal(id, keys.privateKey),
      );
      await recordWebhookEvent(tx, WEBHOOK_EVENTS.created, webhook, now);
      return webhook;
    },
  );
  deps.outbox?.kick();
  return created;
}
