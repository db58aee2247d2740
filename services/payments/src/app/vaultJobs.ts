import { scheduleJob, type JobHandler, type Queryable } from '@platform/kit';
import type { PaymentsDeps } from '../deps';
import { createTokenStore } from '../store/tokenStore';

export const ERASE_EXPIRED_TOKEN_CVVS = 'vault.erase_expired_token_cvvs';
export const VAULT_MAINTENANCE_INTERVAL_MS = 60_000;

/**
 * Schedules the vault's recurring maintenance once per database, whatever the number of replicas: the dedupe
 * key makes a second schedule a no-op, and the job reschedules itself after every run. It never runs out of
 * attempts, so a run of failures delays it (with backoff) but never stops it.
 */
export async function scheduleVaultMaintenance(db: Queryable): Promise<void> {
  await scheduleJob(db, { kind: ERASE_EXPIRED_TOKEN_CVVS, runAt: new Date(), dedupeKey: ERASE_EXPIRED_TOKEN_CVVS, maxAttempts: 2_147_483_647 });
}

/** Durable jobs of the vault. */
export function vaultJobs(deps: Pick<PaymentsDeps, 'pool' | 'clock' | 'log'>): Record<string, JobHandler> {
  const tokens = createTokenStore();
  return {
    // A token that expired unused must not keep its CVV.
    [ERASE_EXPIRED_TOKEN_CVVS]: async () => {
      const erased = await tokens.eraseExpiredCvvs(deps.pool, deps.clock.now());
      if (erased > 0) deps.log.info({ erased }, 'erased CVVs of expired card tokens');
      // The runner compares run_at with the database clock, so the next run is set by real time.
      return { rescheduleAt: new Date(Date.now() + VAULT_MAINTENANCE_INTERVAL_MS) };
    },
  };
}
