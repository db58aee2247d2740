import { errors, requireClientId } from '@platform/kit';
import { type Merchant } from '../domain/merchant';
import type { MerchantContext } from './context';

export async function getMerchant(ctx: Pick<MerchantContext, 'pool' | 'merchants'>, input: { clientId: string; id: string }): Promise<Merchant> {
  const clientId = requireClientId(input.clientId);
  const merchant = await ctx.merchants.findMerchant(ctx.pool, clientId, input.id);
  if (!merchant) throw errors.notFound('Merchant', input.id);
  return merchant;
}
