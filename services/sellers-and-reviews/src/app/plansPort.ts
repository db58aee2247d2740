import type { payouts } from '@platform/contracts';
import { AppError, isUuid, type PromiseClient } from '@platform/kit';

/** What sellers needs to know about plans; they belong to payouts. */
export interface PlansPort {
  /** Resolves when the plan exists and is the client's; 422 plan_not_found naming `planId` otherwise. */
  requirePlan(clientId: string, planId: string): Promise<void>;
}

/** A planId that is not a plan of the caller (unknown, malformed or another client's). */
export function planNotFound(planId: string): AppError {
  return new AppError('business_rule', `planId ${planId}: no such plan for this client`, {
    businessCode: 'plan_not_found',
    details: [{ field: 'planId', message: 'is not a plan of this client' }],
  });
}

/** Asks payouts (`GetPlan`, scoped by client); a malformed id is an unknown plan and is not asked about. */
export function createPlansPort(client: Pick<PromiseClient<typeof payouts.PayoutsServiceService>, 'getPlan'>): PlansPort {
  return {
    async requirePlan(clientId, planId) {
      if (!isUuid(planId)) throw planNotFound(planId);
      try {
        await client.getPlan({ clientId, id: planId });
      } catch (error) {
        if (error instanceof AppError && error.kind === 'not_found') throw planNotFound(planId);
        throw error;
      }
    },
  };
}
