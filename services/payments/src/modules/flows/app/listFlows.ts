import { type PageInput, pageMeta, type PageMeta, requireClientId, toPage } from '@platform/kit';
import type { Flow } from '../domain/flow';
import type { MerchantContext } from '../../merchants/app/context';

export async function listFlows(
  ctx: Pick<MerchantContext, 'pool' | 'flows'>,
  input: { clientId: string; page?: PageInput; merchantId?: string },
): Promise<{ items: Flow[]; meta: PageMeta }> {
  const clientId = requireClientId(input.clientId);
  const page = toPage(input.page);
  const merchantId = input.merchantId?.trim() ? input.merchantId.trim().toLowerCase() : undefined;
  const { items, totalItems } = await ctx.flows.list(ctx.pool, clientId, { merchantId }, page);
  return { items, meta: pageMeta(page, items.length, totalItems) };
}
