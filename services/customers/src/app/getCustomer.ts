import { errors, requireClientId } from '@platform/kit';
import { type Customer } from '../domain/customer';
import type { CustomerDeps } from './deps';

export async function getCustomer(deps: Pick<CustomerDeps, 'pool' | 'store'>, input: { clientId: string; id: string }): Promise<Customer> {
  const clientId = requireClientId(input.clientId);
  const customer = await deps.store.findById(deps.pool, clientId, input.id);
  if (!customer) throw errors.notFound('Customer', input.id);
  return customer;
}
