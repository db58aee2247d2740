import { errors, requireClientId } from '@platform/kit';
import type { SellerDeps } from './deps';

/**
 * The receivers of a split: each seller exists and is the caller's (`split_seller_not_found`), belongs to the
 * charge's merchant (`split_seller_wrong_merchant`) and is neither blocked (`split_seller_blocked`) nor inactive
 * (`split_seller_inactive`). Each refusal is a business rule error whose message names the seller.
 */
export async function checkSplitReceivers(deps: SellerDeps, command: { clientId: string; merchantId: string; sellerIds: string[] }): Promise<string[]> {
  const clientId = requireClientId(command.clientId);
  for (const sellerId of command.sellerIds) {
    const seller = await deps.store.findById(deps.pool, clientId, sellerId);
    if (!seller) throw errors.businessRule('split_seller_not_found', `seller ${sellerId} of the split rules not found`);
    if (seller.merchantId !== command.merchantId) {
      throw errors.businessRule('split_seller_wrong_merchant', `seller ${sellerId} of the split rules belongs to another merchant`);
    }
    if (seller.status === 'blocked') throw errors.businessRule('split_seller_blocked', `seller ${sellerId} of the split rules is blocked`);
    if (seller.status === 'inactive') throw errors.businessRule('split_seller_inactive', `seller ${sellerId} of the split rules is inactive`);
  }
  return command.sellerIds;
}
