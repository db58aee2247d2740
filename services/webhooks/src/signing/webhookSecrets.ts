import { withTransaction, type Logger, type Pool } from '@platform/kit';
import { newWebhookSecret, secretKeyOf, secretOfKey, signingSecretsAt, type SecretSlots } from '../domain/signatures';
import type { WebhookStore } from '../store/webhookStore';
import type { KeySealer } from './keySealer';

interface SecretDeps {
  pool: Pool;
  webhooks: WebhookStore;
  sealer: KeySealer;
}

/** The secrets ("whsec_...") an attempt at `at` is signed with, current first (see `signingSecretsAt`). */
export function openSigningSecrets(sealer: KeySealer, webhookId: string, slots: SecretSlots<Buffer>, at: Date): string[] {
  return signingSecretsAt(slots, at).map((sealed) => secretOfKey(sealer.openSecret(webhookId, sealed)));
}

const BACKFILL_BATCH = 500;

/**
 * Gives a secret to every webhook registered before webhooks had one (the migration cannot: sealing needs
 * WEBHOOKS_SIGNING_KEY). Runs at each start and finds nothing once done; replicas starting together each give a
 * webhook a secret only where none is set yet. Their owners never saw these secrets: they get one by rotating.
 */
export async function backfillSecrets(deps: SecretDeps & { log: Logger }): Promise<number> {
  let given = 0;
  for (;;) {
    const missing = await deps.webhooks.withoutSecret(deps.pool, BACKFILL_BATCH);
    if (missing.length === 0) break;
    const sealed = missing.map((w) => ({ ...w, sealed: deps.sealer.sealSecret(w.id, secretKeyOf(newWebhookSecret())) }));
    given += await withTransaction(deps.pool, (tx) => deps.webhooks.giveSecrets(tx, sealed));
    if (missing.length < BACKFILL_BATCH) break;
  }
  if (given > 0) deps.log.info({ webhooks: given }, 'webhooks registered before secrets were given one');
  return given;
}
