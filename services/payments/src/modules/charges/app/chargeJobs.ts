import type { CronSchedule, JobHandler } from '@platform/kit';
import type { ChargeDeps } from './deps';
import { resumeAbandonedOperations } from './resumeOperations';

export const RESUME_ABANDONED_OPERATIONS = 'payments.charge.resume_abandoned_operations';

/** Every minute, once per database, like the vault's maintenance (a failed or missed run is left to the next one). */
export const chargeCron: CronSchedule[] = [{ kind: RESUME_ABANDONED_OPERATIONS, pattern: '* * * * *', maxAttempts: 1 }];

/** Durable jobs of the charges. */
export function chargeJobs(deps: ChargeDeps): Record<string, JobHandler> {
  return {
    [RESUME_ABANDONED_OPERATIONS]: async () => {
      const resumed = await resumeAbandonedOperations(deps);
      if (resumed > 0) deps.log.info({ resumed }, 'resumed abandoned charge operations');
    },
  };
}
