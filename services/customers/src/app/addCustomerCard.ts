import { errors, isUuid, requireClientId, withTransaction } from '@platform/kit';
import { recordCardAdded } from '../events/customerEvents';
import type { CustomerDeps } from './deps';

/**
 * Links a saved card to a customer. Payments is asked first whether the card exists and is the caller's; the
 * link and payments' own record of the owner are written while the customer row is locked, so a failed call to
 * payments leaves no link behind. Linking the same card twice is a no-op; a card linked to another customer is refused
 * (422 `card_linked_to_another_customer`): a card belongs to one customer at a time, and payments refuses it too.
 */
export async function addCustomerCard(
  deps: Pick<CustomerDeps, 'pool' | 'store' | 'cardLinks' | 'cards' | 'clock' | 'outbox'>,
  input: { clientId: string; customerId: string; cardId: string },
): Promise<void> {
  const clientId = requireClientId(input.clientId);
  if (!isUuid(input.cardId)) throw errors.notFound('Card', input.cardId);
  await withTransaction(deps.pool, async (tx) => {
    const customer = await deps.store.findById(tx, clientId, input.customerId, { forUpdate: true });
    if (!customer) throw errors.notFound('Customer', input.customerId);
    const card = await deps.cards.getCard(clientId, input.cardId);
    const now = deps.clock.now();
    const linked = await deps.cardLinks.link(tx, clientId, customer.id, card.id, now);
    if (linked === 'linked_elsewhere') {
      throw errors.businessRule('card_linked_to_another_customer', `Card ${card.id} is linked to another customer; a card belongs to one customer at a time`);
    }
    await deps.cards.assignToCustomer(clientId, card.id, customer.id);
    if (linked === 'linked') await recordCardAdded(tx, { clientId, customerId: customer.id, card }, now);
  });
  deps.outbox?.kick();
}
