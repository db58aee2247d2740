import { errors, requireClientId } from '@platform/kit';
import type { SavedCard } from '../domain/card';
import type { VaultContext } from './context';

export async function getCard(ctx: Pick<VaultContext, 'pool' | 'cards'>, input: { clientId: string; id: string }): Promise<SavedCard> {
  const clientId = requireClientId(input.clientId);
  const card = await ctx.cards.findById(ctx.pool, clientId, input.id);
  if (!card) throw errors.notFound('Card', input.id);
  return card;
}
