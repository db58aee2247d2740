import type { sellers as contracts } from '@platform/contracts';
import { errors, pageMeta, requireClientId, toPage, type PageMeta } from '@platform/kit';
import { SELLER_STATUSES, type Seller } from '../domain/seller';
import type { SellerDeps } from './deps';

export async function listSellers(deps: SellerDeps, request: contracts.ListSellersRequest): Promise<{ items: Seller[]; meta: PageMeta }> {
  const clientId = requireClientId(request.clientId);
  const statuses = request.statuses.filter((v) => v !== '');
  if (statuses.some((v) => !(SELLER_STATUSES as readonly string[]).includes(v))) {
    throw errors.validation(`status must be one of ${SELLER_STATUSES.join(', ')}`, [{ field: 'status', message: `must be one of ${SELLER_STATUSES.join(', ')}` }]);
  }
  const page = toPage(request.page);
  const { items, totalItems } = await deps.store.list(
    deps.pool,
    clientId,
    { id: request.id, email: request.email, statuses, businessName: request.businessName, merchantId: request.merchantId },
    page,
  );
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
