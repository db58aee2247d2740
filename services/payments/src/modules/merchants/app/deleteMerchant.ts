import { errors, requireClientId, withTransaction } from '@platform/kit';
import { type Merchant } from '../domain/merchant';
import type { MerchantContext } from './context';
import { MERCHANT_EVENTS, recordMerchantEvent } from '../events/merchantEvents';

/** Soft delete: charges keep pointing at the row, but the merchant, its providers and flows are gone for every call. */
export async function deleteMerchant(ctx: MerchantContext, input: { clientId: string; id: string }): Promise<Merchant> {
  const clientId = requireClientId(input.clientId);
  const deleted = await withTransaction(ctx.pool, async (tx) => {
    const now = ctx.clock.now();
    const merchant = await ctx.merchants.softDeleteMerchant(tx, clientId, input.id, now);
    if (!merchant) throw errors.notFound('Merchant', input.id);
    await recordMerchantEvent(tx, MERCHANT_EVENTS.merchantDeleted, merchant, now);
    return merchant;
  });
  ctx.merchantCache?.invalidate(clientId, deleted.id);
  ctx.outbox.kick();
  return deleted;
}
