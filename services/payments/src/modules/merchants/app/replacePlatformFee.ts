import { errors, requireClientId, withTransaction } from '@platform/kit';
import { parsePlatformFeeRules, type Merchant, type PlatformFeeRule } from '../domain/merchant';
import type { MerchantContext } from './context';
import { MERCHANT_EVENTS, recordMerchantEvent } from '../events/merchantEvents';

/** Replaces the whole rule list; an empty list removes every rule. */
export async function replacePlatformFee(ctx: MerchantContext, input: { clientId: string; merchantId: string; rules: PlatformFeeRule[] }): Promise<Merchant> {
  const clientId = requireClientId(input.clientId);
  const rules = parsePlatformFeeRules(input.rules);
  const updated = await withTransaction(ctx.pool, async (tx) => {
    const now = ctx.clock.now();
    const merchant = await ctx.merchants.setPlatformFee(tx, clientId, input.merchantId, { rules }, now);
    if (!merchant) throw errors.notFound('Merchant', input.merchantId);
    await recordMerchantEvent(tx, MERCHANT_EVENTS.merchantUpdated, merchant, now);
    return merchant;
  });
  ctx.merchantCache?.invalidate(clientId, updated.id);
  ctx.outbox.kick();
  return updated;
}
