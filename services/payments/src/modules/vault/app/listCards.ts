import { type PageInput, pageMeta, type PageMeta, requireClientId, toPage } from '@platform/kit';
import type { SavedCard } from '../domain/card';
import type { CardFilters } from '../store/cardStore';
import type { VaultContext } from './context';

export async function listCards(
  ctx: Pick<VaultContext, 'pool' | 'cards'>,
  input: { clientId: string; page?: PageInput; customerId?: string; ids?: string[] },
): Promise<{ items: SavedCard[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const page = toPage(input.page);
  const filters: CardFilters = {};
  if (input.customerId?.trim()) filters.customerId = input.customerId.trim().toLowerCase();
  const ids = (input.ids ?? []).map((id) => id.trim().toLowerCase()).filter((id) => id !== '');
  if (ids.length > 0) filters.ids = ids;
  const { items, totalItems } = await ctx.cards.list(ctx.pool, clientId, filters, page);
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
