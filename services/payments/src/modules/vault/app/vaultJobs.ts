import type { CronSchedule, JobHandler } from '@platform/kit';
import type { PaymentsDeps } from '../../../shared/deps';
import { createTokenStore } from '../store/tokenStore';
import { createVaultKeyStore } from '../store/vaultKeyStore';
import { REWRAP_BATCH, REWRAP_SEALED_VALUES, rewrapSealedValues } from './keyRotation';

export const ERASE_EXPIRED_TOKEN_CVVS = 'vault.erase_expired_token_cvvs';

/**
 * The vault's recurring maintenance: every minute, once per database whatever the number of replicas. A failed run
 * is not retried (the next minute's run does the same work), and missed runs are not made up for the same reason.
 */
export const vaultCron: CronSchedule[] = [{ kind: ERASE_EXPIRED_TOKEN_CVVS, pattern: '* * * * *', maxAttempts: 1 }];

/**
 * Durable jobs of the vault. The re-wrap job is added at start when stored values are on older keys
 * (checkVaultKeys, src/modules/vault/app/keyRotation.ts); `rewrapBatch` is its rows per transaction.
 */
export function vaultJobs(deps: Pick<PaymentsDeps, 'pool' | 'clock' | 'log' | 'vault'>, options: { rewrapBatch?: number } = {}): Record<string, JobHandler> {
  const tokens = createTokenStore();
  const keyStore = createVaultKeyStore();
  return {
    // A token that expired unused must not keep its CVV.
    [ERASE_EXPIRED_TOKEN_CVVS]: async () => {
      const erased = await tokens.eraseExpiredCvvs(deps.pool, deps.clock.now());
      if (erased > 0) deps.log.info({ erased }, 'erased CVVs of expired card tokens');
    },
    [REWRAP_SEALED_VALUES]: async (job) => rewrapSealedValues({ ...deps, keyStore }, job.payload, options.rewrapBatch ?? REWRAP_BATCH),
  };
}
