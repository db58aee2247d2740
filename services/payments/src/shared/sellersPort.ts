import type { sellers } from '@platform/contracts';
import type { PromiseClient } from '@platform/kit';

/** What payments needs to know about the receivers of a split; sellers belong to the sellers-and-reviews service. */
export interface SellersPort {
  /**
   * Resolves when every seller is the client's, belongs to the merchant and can receive (neither blocked nor
   * inactive); otherwise a business rule error whose code and message name the seller (`split_seller_*`).
   */
  checkSplitReceivers(clientId: string, merchantId: string, sellerIds: readonly string[]): Promise<void>;
}

/** The sellers-and-reviews service answers over gRPC; its CheckSplitReceivers is scoped by client. */
export function createSellersPort(client: PromiseClient<typeof sellers.SellersServiceService>): SellersPort {
  return {
    checkSplitReceivers: async (clientId, merchantId, sellerIds) => {
      if (sellerIds.length === 0) return;
      await client.checkSplitReceivers({ clientId, merchantId, sellerIds: [...sellerIds] });
    },
  };
}
