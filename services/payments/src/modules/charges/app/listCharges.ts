import { pageMeta, type PageInput, type PageMeta, requireClientId, toPage } from '@platform/kit';
import { type Charge } from '../domain/charge';
import { parseChargeFilters, type ChargeFilterInput } from '../domain/chargeFilters';
import type { ChargeDeps } from './deps';

/** The client's charges, newest first unless ASC is asked, each with its transaction requests. */
export async function listCharges(
  deps: Pick<ChargeDeps, 'pool' | 'store'>,
  request: ChargeFilterInput & { clientId: string; page?: PageInput | undefined },
): Promise<{ items: Charge[]; meta: PageMeta }> {
  const clientId = requireClientId(request.clientId);
  const filters = parseChargeFilters(request);
  const page = toPage(request.page);
  const { items, totalItems } = await deps.store.list(deps.pool, clientId, filters, page);
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
