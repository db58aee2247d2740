import type { sellers } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';
import type { SellersPort } from './deps';

/** The sellers-and-reviews service over gRPC. */
export function createSellersPort(client: PromiseClient<typeof sellers.SellersServiceService>): SellersPort {
  return {
    async checkSplitReceivers(clientId, merchantId, sellerIds) {
      if (sellerIds.length === 0) return;
      await client.checkSplitReceivers({ clientId, merchantId, sellerIds: [...sellerIds] });
    },
  };
}
