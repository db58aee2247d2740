import { errors } from '@platform/kit';
import type { SellersPort } from '../../src/shared/sellersPort';

/**
 * The sellers-and-reviews service as payments sees it, in memory: every seller can receive but the ones refused
 * here, which answer the business code given (as `split_seller_blocked`).
 */
export class FakeSellers implements SellersPort {
  private readonly refused = new Map<string, string>();
  /** Every question asked, in order. */
  readonly asked: Array<{ clientId: string; merchantId: string; sellerIds: string[] }> = [];

  refuse(sellerId: string, businessCode: string): void {
    this.refused.set(sellerId, businessCode);
  }

  async checkSplitReceivers(clientId: string, merchantId: string, sellerIds: readonly string[]): Promise<void> {
    if (sellerIds.length === 0) return;
    this.asked.push({ clientId, merchantId, sellerIds: [...sellerIds] });
    for (const sellerId of sellerIds) {
      const code = this.refused.get(sellerId);
      if (code) throw errors.businessRule(code, `seller ${sellerId} of the split rules cannot receive`);
    }
  }
}
