import { randomUUID } from 'node:crypto';
import { webhooks } from '@platform/contracts';
import { requireClientId, withIdempotency, type IdempotencyCodec } from '@platform/kit';
import { newSigningKeyPair, newWebhookSecret, secretKeyOf, secretOfKey } from '../domain/signatures';
import { namesPrivateHost, parseNewWebhook, type NewWebhookInput, type Webhook } from '../domain/webhook';
import { recordWebhookEvent, WEBHOOK_EVENTS } from '../events/webhookEvents';
import type { KeySealer } from '../signing/keySealer';
import { fromWebhookMessage, toWebhookMessage } from '../wire/webhookMessages';
import { privateTargetsAllowed } from './clientsPort';
import type { WebhookDeps } from './deps';

export const CREATE_WEBHOOK_OPERATION = 'webhooks.create';

/** A webhook as its registration answers it: with its Standard Webhooks secret, which no other answer carries. */
export interface CreatedWebhook {
  webhook: Webhook;
  /** Null only in the replay of a registration recorded before webhooks had secrets. */
  secret: string | null;
}

/**
 * The idempotency record keeps the answer as the wire message with the secret sealed (as on the webhook's row), so a
 * replay answers the very secret the first call did and the record never holds it in clear.
 */
function createdWebhookCodec(sealer: KeySealer): IdempotencyCodec<CreatedWebhook> {
  return {
    encode: ({ webhook, secret }) =>
      webhooks.Webhook.encode({
        ...toWebhookMessage(webhook),
        secret: secret === null ? undefined : sealer.sealSecret(webhook.id, secretKeyOf(secret)).toString('base64'),
      }).finish(),
    decode: (bytes) => {
      const message = webhooks.Webhook.decode(bytes);
      const webhook = fromWebhookMessage(message);
      const sealed = message.secret;
      return { webhook, secret: sealed === undefined ? null : secretOfKey(sealer.openSecret(webhook.id, Buffer.from(sealed, 'base64'))) };
    },
  };
}

/**
 * Registers a webhook with a signing key pair and a Standard Webhooks secret of its own. Only the public key ever
 * leaves the service again; the secret is answered here once, and both it and the private key are stored sealed.
 */
export async function createWebhook(
  deps: WebhookDeps,
  command: NewWebhookInput & { clientId: string },
  idempotencyKey?: string,
): Promise<CreatedWebhook> {
  const clientId = requireClientId(command.clientId);
  // A private endpoint is for a sandbox client, and only while the operator's switch is on.
  const allowPrivateTargets = namesPrivateHost(command.endpoint) && (await privateTargetsAllowed(deps, clientId));
  const fields = parseNewWebhook(command, { allowPrivateTargets });
  const created = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: CREATE_WEBHOOK_OPERATION, request: command, codec: createdWebhookCodec(deps.sealer) },
    async (tx) => {
      const id = randomUUID();
      const keys = newSigningKeyPair();
      const secret = newWebhookSecret();
      const now = deps.clock.now();
      const webhook = await deps.webhooks.insert(
        tx,
        { id, clientId, ...fields, publicKey: keys.publicKey, createdAt: now, updatedAt: now },
        { privateKey: deps.sealer.seal(id, keys.privateKey), secret: deps.sealer.sealSecret(id, secretKeyOf(secret)) },
      );
      await recordWebhookEvent(tx, WEBHOOK_EVENTS.created, webhook, now);
      return { webhook, secret };
    },
  );
  deps.outbox?.kick();
  return created;
}
