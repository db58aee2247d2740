import { errors, isUuid, requireClientId, withTransaction } from '@platform/kit';
import type { SavedCard } from '../domain/card';
import type { VaultContext } from './context';

/**
 * Links a saved card to a customer; the customers service owns the customer and asks for the link. A card belongs to
 * one customer at a time: linking it to the same customer again changes nothing, to another one is refused (422
 * `card_linked_to_another_customer`), so a subscription or charge of another customer can never use it.
 */
export async function assignCardToCustomer(
  ctx: Pick<VaultContext, 'pool' | 'cards' | 'clock'>,
  input: { clientId: string; cardId: string; customerId: string },
): Promise<SavedCard> {
  const clientId = requireClientId(input.clientId);
  if (!isUuid(input.customerId)) throw errors.validation('Invalid customerId', [{ field: 'customerId', message: 'must be a UUID' }]);
  const customerId = input.customerId.toLowerCase();
  return withTransaction(ctx.pool, async (tx) => {
    const card = await ctx.cards.assignCustomer(tx, clientId, input.cardId, customerId, ctx.clock.now());
    if (card) return card;
    if (!(await ctx.cards.findById(tx, clientId, input.cardId))) throw errors.notFound('Card', input.cardId);
    throw errors.businessRule('card_linked_to_another_customer', `Card ${input.cardId} is linked to another customer; a card belongs to one customer at a time`);
  });
}
