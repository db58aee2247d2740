import { webhooks } from '@platform/contracts';
import { errors, requireClientId, withIdempotency, type IdempotencyCodec } from '@platform/kit';
import { newWebhookSecret, rotateSecrets, secretKeyOf, secretOfKey } from '../domain/signatures';
import type { KeySealer } from '../signing/keySealer';
import type { WebhookDeps } from './deps';

export const ROTATE_SECRET_OPERATION = 'webhooks.rotate_secret';

/** The new secret, kept sealed in the idempotency record: a replay answers the same secret, never stored in clear. */
function rotatedSecretCodec(sealer: KeySealer, webhookId: string): IdempotencyCodec<{ secret: string }> {
  return {
    encode: ({ secret }) => webhooks.RotateWebhookSecretResponse.encode({ secret: sealer.sealSecret(webhookId, secretKeyOf(secret)).toString('base64') }).finish(),
    decode: (bytes) => ({ secret: secretOfKey(sealer.openSecret(webhookId, Buffer.from(webhooks.RotateWebhookSecretResponse.decode(bytes).secret, 'base64'))) }),
  };
}

/**
 * Gives the webhook a new Standard Webhooks secret and answers it. For 24 hours from now every delivery is signed
 * with the new and the replaced secret, so receivers can switch without losing one; after that with the new one only.
 * A rotation during that overlap makes the secret it replaces the previous one and drops the one before at once.
 */
export async function rotateSecret(deps: WebhookDeps, input: { clientId: string; id: string }, idempotencyKey?: string): Promise<{ secret: string }> {
  const clientId = requireClientId(input.clientId);
  return withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: ROTATE_SECRET_OPERATION, request: input, codec: rotatedSecretCodec(deps.sealer, input.id) },
    async (tx) => {
      const webhook = await deps.webhooks.findById(tx, clientId, input.id, { forUpdate: true });
      const slots = webhook ? await deps.webhooks.secrets(tx, clientId, webhook.id) : null;
      if (!webhook || !slots) throw errors.notFound('Webhook', input.id);
      const secret = newWebhookSecret();
      // Sealed under the stored id: deliveries open it with the id as the database writes it.
      const sealed = deps.sealer.sealSecret(webhook.id, secretKeyOf(secret));
      await deps.webhooks.setSecrets(tx, clientId, webhook.id, rotateSecrets(slots, sealed, deps.clock.now()));
      return { secret };
    },
  );
}
