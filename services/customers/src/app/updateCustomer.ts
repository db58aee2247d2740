import { errors, requireClientId, withTransaction } from '@platform/kit';
import { applyChanges, parseCustomerChanges, type Customer, type UpdateCustomerInput } from '../domain/customer';
import { CUSTOMER_EVENTS, recordCustomerEvent } from '../events/customerEvents';
import type { CustomerDeps } from './deps';

export async function updateCustomer(deps: CustomerDeps, input: UpdateCustomerInput & { clientId: string; id: string }): Promise<Customer> {
  const clientId = requireClientId(input.clientId);
  const changes = parseCustomerChanges(input);
  const updated = await withTransaction(deps.pool, async (tx) => {
    // Locked, so two updates of different address fields both land instead of the second overwriting the first.
    const current = await deps.store.findById(tx, clientId, input.id, { forUpdate: true });
    if (!current) throw errors.notFound('Customer', input.id);
    const now = deps.clock.now();
    const saved = await deps.store.update(tx, applyChanges(current, changes, now));
    if (!saved) throw errors.notFound('Customer', input.id);
    await recordCustomerEvent(tx, CUSTOMER_EVENTS.updated, saved, now);
    return saved;
  });
  deps.outbox?.kick();
  return updated;
}
