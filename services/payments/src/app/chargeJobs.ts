import { scheduleJob, type JobHandler, type Queryable } from '@platform/kit';
import type { ChargeDeps } from './charges/deps';
import { resumeAbandonedOperations } from './charges/resumeOperations';

export const RESUME_ABANDONED_OPERATIONS = 'payments.charge.resume_abandoned_operations';
export const CHARGE_MAINTENANCE_INTERVAL_MS = 60_000;

/** Schedules the recurring job once per database, like the vault's (the dedupe key makes a second schedule a no-op). */
export async function scheduleChargeMaintenance(db: Queryable): Promise<void> {
  await scheduleJob(db, { kind: RESUME_ABANDONED_OPERATIONS, runAt: new Date(), dedupeKey: RESUME_ABANDONED_OPERATIONS, maxAttempts: 2_147_483_647 });
}

/** Durable jobs of the charges. */
export function chargeJobs(deps: ChargeDeps): Record<string, JobHandler> {
  return {
    [RESUME_ABANDONED_OPERATIONS]: async () => {
      const resumed = await resumeAbandonedOperations(deps);
      if (resumed > 0) deps.log.info({ resumed }, 'resumed abandoned charge operations');
      return { rescheduleAt: new Date(Date.now() + CHARGE_MAINTENANCE_INTERVAL_MS) };
    },
  };
}
