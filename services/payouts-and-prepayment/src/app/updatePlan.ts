import { errors, requireClientId, withTransaction } from '@platform/kit';
import { parseMonthlyRate, parsePlanFeeTable, parsePlanName, parseSettlementDays, type Plan, type PlanFee } from '../domain/plan';
import type { PayoutsDeps } from './deps';
import { loadPlan } from './loadPlan';
import type { PlanInput } from './createPlan';

export async function updatePlan(deps: PayoutsDeps, input: { clientId: string; id: string } & PlanInput): Promise<Plan> {
  const clientId = requireClientId(input.clientId);
  const now = deps.clock.now();
  if (input.isDefault === false) {
    throw errors.validation('isDefault can only be set to true: another plan becomes the default by being set', [{ field: 'isDefault', message: 'must be true' }]);
  }
  return withTransaction(deps.pool, async (tx) => {
    const plan = await loadPlan(deps, tx, clientId, input.id, true);
    const fees: PlanFee[] = input.replaceFees ? parsePlanFeeTable(input.fees ?? []) : plan.fees;
    const next: Plan = {
      ...plan,
      name: input.name === undefined ? plan.name : parsePlanName(input.name),
      fees,
      settlementDays: parseSettlementDays(input.settlementDays ?? {}, plan.settlementDays),
      prepaymentMonthlyRate: input.prepaymentMonthlyRate === undefined ? plan.prepaymentMonthlyRate : parseMonthlyRate(input.prepaymentMonthlyRate),
      updatedAt: now,
    };
    if (input.isDefault === true && !plan.isDefault) {
      await deps.planStore.lockDefault(tx, clientId);
      await deps.planStore.clearDefault(tx, clientId, now);
      next.isDefault = true;
    }
    await deps.planStore.update(tx, next);
    return next;
  });
}
