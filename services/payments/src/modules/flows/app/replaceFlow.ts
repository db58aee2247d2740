import { errors, requireClientId, withTransaction } from '@platform/kit';
import { parseFlowDefinition, type Flow, type FlowInput } from '../domain/flow';
import type { MerchantContext } from '../../merchants/app/context';
import { MERCHANT_EVENTS, recordFlowEvent } from '../../merchants/events/merchantEvents';
import { checkRoutesOfMerchant } from './createFlow';

/** Replaces the flow wholly (name, payment method, rules, default route); it stays on its merchant. */
export async function replaceFlow(ctx: MerchantContext, command: FlowInput & { clientId: string; id: string }): Promise<Flow> {
  const clientId = requireClientId(command.clientId);
  const definition = parseFlowDefinition(command);
  const replaced = await withTransaction(ctx.pool, async (tx) => {
    const current = await ctx.flows.findById(tx, clientId, command.id);
    if (!current) throw errors.notFound('Flow', command.id);
    await checkRoutesOfMerchant(ctx, tx, clientId, current.merchantId, definition);
    const now = ctx.clock.now();
    const saved = await ctx.flows.replace(tx, { ...current, ...definition, updatedAt: now });
    if (!saved) throw errors.notFound('Flow', command.id);
    await recordFlowEvent(tx, MERCHANT_EVENTS.flowUpdated, saved, now);
    return saved;
  });
  ctx.merchantCache?.invalidate(clientId, replaced.merchantId);
  ctx.outbox.kick();
  return replaced;
}
