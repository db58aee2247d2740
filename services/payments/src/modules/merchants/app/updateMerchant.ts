import { errors, requireClientId, withTransaction } from '@platform/kit';
import { applyMerchantChanges, parseMerchantChanges, type Merchant, type MerchantChanges } from '../domain/merchant';
import type { MerchantContext } from './context';
import { MERCHANT_EVENTS, recordMerchantEvent } from '../events/merchantEvents';

export async function updateMerchant(ctx: MerchantContext, input: MerchantChanges & { clientId: string; id: string }): Promise<Merchant> {
  const clientId = requireClientId(input.clientId);
  const changes = parseMerchantChanges({ mcc: input.mcc, name: input.name, merchantName: input.merchantName, merchantUrl: input.merchantUrl });
  const updated = await withTransaction(ctx.pool, async (tx) => {
    const current = await ctx.merchants.findMerchant(tx, clientId, input.id, { forUpdate: true });
    if (!current) throw errors.notFound('Merchant', input.id);
    const now = ctx.clock.now();
    const saved = await ctx.merchants.updateMerchant(tx, applyMerchantChanges(current, changes, now));
    if (!saved) throw errors.notFound('Merchant', input.id);
    await recordMerchantEvent(tx, MERCHANT_EVENTS.merchantUpdated, saved, now);
    return saved;
  });
  ctx.merchantCache?.invalidate(clientId, updated.id);
  ctx.outbox.kick();
  return updated;
}
