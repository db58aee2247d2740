import { randomUUID } from 'node:crypto';
import { jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import { DEFAULT_FEES, DEFAULT_PREPAYMENT_MONTHLY_RATE, DEFAULT_SETTLEMENT_DAYS, parseMonthlyRate, parsePlanFeeTable, parsePlanName, parseSettlementDays, type PaymentType, type Plan } from '../domain/plan';
import type { PayoutsDeps } from './deps';
import { defaultPlanOf } from './planOfReceiver';

export interface PlanInput {
  name?: string;
  isDefault?: boolean;
  fees?: unknown[];
  replaceFees?: boolean;
  settlementDays?: Partial<Record<PaymentType, number | undefined>>;
  prepaymentMonthlyRate?: number;
}

export const CREATE_PLAN_OPERATION = 'payouts.plans.create';

const planCodec = jsonCodec<Plan>();

/** Validates the plan before the idempotency key is claimed; the same X-Idempotency-Key answers the same plan again. */
export async function createPlan(deps: PayoutsDeps, input: { clientId: string } & PlanInput, idempotencyKey?: string): Promise<Plan> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  const plan: Plan = {
    id: randomUUID(),
    clientId,
    name: parsePlanName(input.name ?? ''),
    isDefault: input.isDefault === true,
    fees: input.fees && input.fees.length > 0 ? parsePlanFeeTable(input.fees) : DEFAULT_FEES.map((f) => ({ ...f })),
    settlementDays: parseSettlementDays(input.settlementDays ?? {}, DEFAULT_SETTLEMENT_DAYS),
    prepaymentMonthlyRate: parseMonthlyRate(input.prepaymentMonthlyRate ?? DEFAULT_PREPAYMENT_MONTHLY_RATE),
    createdAt: now,
    updatedAt: now,
  };
  return withIdempotency(deps.pool, { clientId, key: idempotencyKey, operation: CREATE_PLAN_OPERATION, request: input, codec: planCodec }, async (tx) => {
    // The client has its default plan from its first use; a new plan asked to be the default takes its place.
    await defaultPlanOf(deps, tx, clientId, now);
    if (plan.isDefault) {
      await deps.planStore.lockDefault(tx, clientId);
      await deps.planStore.clearDefault(tx, clientId, now);
    }
    await deps.planStore.insert(tx, plan);
    return plan;
  });
}
