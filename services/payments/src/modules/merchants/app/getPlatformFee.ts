import type { Merchant } from '../domain/merchant';
import type { MerchantContext } from './context';
import { getMerchant } from './getMerchant';

export async function getPlatformFee(ctx: Pick<MerchantContext, 'pool' | 'merchants'>, input: { clientId: string; merchantId: string }): Promise<Merchant> {
  return getMerchant(ctx, { clientId: input.clientId, id: input.merchantId });
}
