import { errors, pageMeta, requireClientId, toPage, type PageMeta } from '@platform/kit';
import type { common } from '@platform/contracts';
import type { CardSummary } from './cardsPort';
import type { CustomerDeps } from './deps';

export interface LinkedCard extends CardSummary {
  linkedAt: Date;
}

/** The customer's cards, newest link first; a card payments no longer knows is left out of the page. */
export async function listCustomerCards(
  deps: Pick<CustomerDeps, 'pool' | 'store' | 'cardLinks' | 'cards'>,
  input: { clientId: string; customerId: string; page?: common.PageRequest },
): Promise<{ items: LinkedCard[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const customer = await deps.store.findById(deps.pool, clientId, input.customerId);
  if (!customer) throw errors.notFound('Customer', input.customerId);
  const page = toPage(input.page);
  const links = await deps.cardLinks.list(deps.pool, clientId, customer.id, page);
  const cards = new Map((await deps.cards.listByIds(clientId, links.items.map((l) => l.cardId))).map((c) => [c.id, c]));
  const items = links.items.flatMap((link) => {
    const card = cards.get(link.cardId);
    return card ? [{ ...card, linkedAt: link.linkedAt }] : [];
  });
  return { items, meta: pageMeta(page, items.length, links.totalItems) };
}
