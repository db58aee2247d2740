import { errors, isUuid, type Queryable } from '@platform/kit';
import type { Plan } from '../domain/plan';
import type { PayoutsDeps } from './deps';

/** The client's plan (a malformed id is an unknown one), locked for the transaction with `forUpdate`; not found otherwise. */
export async function loadPlan(deps: PayoutsDeps, db: Queryable, clientId: string, id: string, forUpdate = false): Promise<Plan> {
  const plan = isUuid(id) ? await deps.planStore.findById(db, clientId, id.toLowerCase(), { forUpdate }) : null;
  if (!plan) throw errors.notFound('Plan', id);
  return plan;
}
