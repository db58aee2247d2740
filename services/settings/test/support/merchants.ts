import { errors } from '@platform/kit';
import type { MerchantsPort } from '../../src/app/merchantsPort';

/** The payments service as settings sees it, in memory: only the merchants added here exist, each for its client. */
export class FakeMerchants implements MerchantsPort {
  private readonly owners = new Map<string, string>();
  /** Every question asked, in order. */
  readonly asked: Array<{ clientId: string; merchantId: string }> = [];

  add(clientId: string, merchantId: string): string {
    this.owners.set(merchantId, clientId);
    return merchantId;
  }

  async requireMerchant(clientId: string, merchantId: string): Promise<void> {
    this.asked.push({ clientId, merchantId });
    if (this.owners.get(merchantId) !== clientId) throw errors.notFound('Merchant');
  }
}
