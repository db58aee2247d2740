import { errors, requireClientId, withTransaction } from '@platform/kit';
import { type Merchant } from '../domain/merchant';
import type { MerchantContext } from './context';
import { MERCHANT_EVENTS, recordMerchantEvent } from '../events/merchantEvents';

export async function setPlatformFeeEnabled(ctx: MerchantContext, input: { clientId: string; merchantId: string; enabled: boolean }): Promise<Merchant> {
  const clientId = requireClientId(input.clientId);
  const updated = await withTransaction(ctx.pool, async (tx) => {
    const now = ctx.clock.now();
    const merchant = await ctx.merchants.setPlatformFee(tx, clientId, input.merchantId, { enabled: input.enabled }, now);
    if (!merchant) throw errors.notFound('Merchant', input.merchantId);
    await recordMerchantEvent(tx, MERCHANT_EVENTS.merchantUpdated, merchant, now);
    return merchant;
  });
  ctx.merchantCache?.invalidate(clientId, updated.id);
  ctx.outbox.kick();
  return updated;
}
