import type { CronSchedule, JobHandler } from '@platform/kit';
import type { ChargeDeps } from './deps';
import { resumeAbandonedOperations } from './resumeOperations';
import { syncProviderStatuses } from './statusSync';
import { EARLY_NOTIFICATION, lookAgain } from './providerNotifications';

export const RESUME_ABANDONED_OPERATIONS = 'payments.charge.resume_abandoned_operations';
export const SYNC_PROVIDER_STATUSES = 'payments.charge.sync_provider_statuses';

/** Every minute, once per database, like the vault's maintenance (a failed or missed run is left to the next one). */
export const chargeCron: CronSchedule[] = [
  { kind: RESUME_ABANDONED_OPERATIONS, pattern: '* * * * *', maxAttempts: 1 },
  // Each charge keeps its own schedule (statusSync.ts): the run only picks those due on the service's clock.
  { kind: SYNC_PROVIDER_STATUSES, pattern: '* * * * *', maxAttempts: 1 },
];

/** Durable jobs of the charges. */
export function chargeJobs(deps: ChargeDeps): Record<string, JobHandler> {
  return {
    [RESUME_ABANDONED_OPERATIONS]: async () => {
      const resumed = await resumeAbandonedOperations(deps);
      if (resumed > 0) deps.log.info({ resumed }, 'resumed abandoned charge operations');
    },
    [EARLY_NOTIFICATION]: (job) => lookAgain(deps, job),
    [SYNC_PROVIDER_STATUSES]: async () => {
      const asked = await syncProviderStatuses(deps);
      if (asked > 0) deps.log.info({ asked }, 'asked providers where waiting charges stand');
    },
  };
}
