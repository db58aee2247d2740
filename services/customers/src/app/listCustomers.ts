import { pageMeta, requireClientId, toPage, type PageInput, type PageMeta } from '@platform/kit';
import { normaliseListFilters, type Customer, type ListFilters } from '../domain/customer';
import type { CustomerDeps } from './deps';

export interface ListCustomersInput extends ListFilters {
  clientId: string;
  page?: PageInput;
}

export async function listCustomers(
  deps: Pick<CustomerDeps, 'pool' | 'store'>,
  input: ListCustomersInput,
): Promise<{ items: Customer[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const page = toPage(input.page);
  const { items, totalItems } = await deps.store.list(deps.pool, clientId, normaliseListFilters(input), page);
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
