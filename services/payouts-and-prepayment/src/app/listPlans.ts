import { pageMeta, requireClientId, toPage, withTransaction, type PageInput, type PageMeta } from '@platform/kit';
import type { Plan } from '../domain/plan';
import type { PayoutsDeps } from './deps';
import { defaultPlanOf } from './planOfReceiver';

export async function listPlans(deps: PayoutsDeps, input: { clientId: string; page?: PageInput }): Promise<{ items: Plan[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  // A client always has its default plan to show.
  await withTransaction(deps.pool, (tx) => defaultPlanOf(deps, tx, clientId, deps.clock.now()));
  const page = toPage(input.page);
  const { items, total } = await deps.planStore.list(deps.pool, clientId, page);
  return { items, meta: pageMeta(page, items.length, total) };
}
