import { type PageInput, pageMeta, type PageMeta, requireClientId, toPage } from '@platform/kit';
import { type Merchant } from '../domain/merchant';
import type { MerchantContext } from './context';

export async function listMerchants(
  ctx: Pick<MerchantContext, 'pool' | 'merchants'>,
  input: { clientId: string; page?: PageInput },
): Promise<{ items: Merchant[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const page = toPage(input.page);
  const { items, totalItems } = await ctx.merchants.listMerchants(ctx.pool, clientId, page);
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
