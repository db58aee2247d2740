import { randomUUID } from 'node:crypto';
import type { Queryable } from '@platform/kit';
import { DEFAULT_FEES, DEFAULT_PLAN_NAME, DEFAULT_PREPAYMENT_MONTHLY_RATE, DEFAULT_SETTLEMENT_DAYS, type Plan } from '../domain/plan';
import type { PayoutsDeps } from './deps';

/** The default plan every client gets with its first use. */
function defaultPlan(clientId: string, now: Date): Plan {
  return {
    id: randomUUID(),
    clientId,
    name: DEFAULT_PLAN_NAME,
    isDefault: true,
    fees: DEFAULT_FEES.map((f) => ({ ...f })),
    settlementDays: { ...DEFAULT_SETTLEMENT_DAYS },
    prepaymentMonthlyRate: DEFAULT_PREPAYMENT_MONTHLY_RATE,
    createdAt: now,
    updatedAt: now,
  };
}

/** The client's default plan, created with its first use. */
export async function defaultPlanOf(deps: PayoutsDeps, db: Queryable, clientId: string, now: Date): Promise<Plan> {
  return (await deps.planStore.findDefault(db, clientId)) ?? deps.planStore.ensureDefault(db, defaultPlan(clientId, now));
}

/** The plan of a receiver: a seller's own plan when it has one (as the sellers service last said), else the default. */
export async function planOfReceiver(deps: PayoutsDeps, db: Queryable, clientId: string, receiver: string | null, now: Date): Promise<Plan> {
  if (receiver !== null) {
    const seller = await deps.sellerStore.find(db, clientId, receiver);
    if (seller?.planId) {
      const own = await deps.planStore.findById(db, clientId, seller.planId);
      if (own) return own;
    }
  }
  return defaultPlanOf(deps, db, clientId, now);
}
