import { errors, requireClientId, withTransaction } from '@platform/kit';
import { type Customer } from '../domain/customer';
import { CUSTOMER_EVENTS, recordCustomerEvent } from '../events/customerEvents';
import type { CustomerDeps } from './deps';

/** Soft delete: the row stays for history, and its e-mail and document are free for a new customer. */
export async function deleteCustomer(deps: CustomerDeps, input: { clientId: string; id: string }): Promise<Customer> {
  const clientId = requireClientId(input.clientId);
  const deleted = await withTransaction(deps.pool, async (tx) => {
    const now = deps.clock.now();
    const customer = await deps.store.softDelete(tx, clientId, input.id, now);
    if (!customer) throw errors.notFound('Customer', input.id);
    await recordCustomerEvent(tx, CUSTOMER_EVENTS.deleted, customer, now);
    return customer;
  });
  deps.outbox?.kick();
  return deleted;
}
