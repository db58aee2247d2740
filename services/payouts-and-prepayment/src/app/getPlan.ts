import { requireClientId } from '@platform/kit';
import type { Plan } from '../domain/plan';
import type { PayoutsDeps } from './deps';
import { loadPlan } from './loadPlan';

export async function getPlan(deps: PayoutsDeps, input: { clientId: string; id: string }): Promise<Plan> {
  return loadPlan(deps, deps.pool, requireClientId(input.clientId), input.id);
}
