import type { JobHandler } from '@platform/kit';
import { billCycle } from './billing';
import { BILL_CYCLE_JOB, type SubscriptionDeps } from './deps';

/** Durable jobs of the subscriptions: one attempt at a cycle, at its time (a late or repeated job changes nothing). */
export function subscriptionJobs(deps: SubscriptionDeps): Record<string, JobHandler> {
  return {
    [BILL_CYCLE_JOB]: async (job) => {
      const { clientId, cycleId, attempt } = job.payload as { clientId: string; cycleId: string; attempt: number };
      await billCycle(deps, { clientId, cycleId, attempt, asOf: deps.clock.now() });
    },
  };
}
