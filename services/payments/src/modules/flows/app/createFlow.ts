import { randomUUID } from 'node:crypto';
import { errors, jsonCodec, type Queryable, requireClientId, withIdempotency } from '@platform/kit';
import { assertRoutesUseProviders, parseFlowDefinition, type Flow, type FlowDefinition, type FlowInput } from '../domain/flow';
import { isPaymentProvider } from '../../merchants/domain/merchant';
import type { MerchantContext } from '../../merchants/app/context';
import { MERCHANT_EVENTS, recordFlowEvent } from '../../merchants/events/merchantEvents';

export const CREATE_FLOW_OPERATION = 'payments.flows.create';

/** The idempotency record keeps the answer as the kit's JSON of the domain result, as every payments operation does. */
const flowCodec = jsonCodec<Flow>();

/**
 * Locks the merchant (so its providers cannot change under the check) and checks that every route names an
 * active payment provider of it, and every antifraud entry a rule names is one of its antifraud providers.
 */
export async function checkRoutesOfMerchant(ctx: MerchantContext, tx: Queryable, clientId: string, merchantId: string, definition: FlowDefinition): Promise<void> {
  const merchant = await ctx.merchants.findMerchant(tx, clientId, merchantId, { forUpdate: true });
  if (!merchant) throw errors.notFound('Merchant', merchantId);
  const ids = new Set(merchant.providers.filter((p) => isPaymentProvider(p.credentialsType)).map((p) => p.id));
  const antifraudIds = new Set(merchant.providers.filter((p) => !isPaymentProvider(p.credentialsType)).map((p) => p.id));
  assertRoutesUseProviders(definition, ids, antifraudIds);
}

export async function createFlow(ctx: MerchantContext, command: FlowInput & { clientId: string; merchantId: string }, idempotencyKey?: string): Promise<Flow> {
  const clientId = requireClientId(command.clientId);
  const definition = parseFlowDefinition(command);
  const created = await withIdempotency(
    ctx.pool,
    { clientId, key: idempotencyKey, operation: CREATE_FLOW_OPERATION, request: command, codec: flowCodec },
    async (tx) => {
      await checkRoutesOfMerchant(ctx, tx, clientId, command.merchantId, definition);
      const now = ctx.clock.now();
      const flow = await ctx.flows.insert(tx, {
        id: randomUUID(),
        clientId,
        merchantId: command.merchantId.toLowerCase(),
        ...definition,
        createdAt: now,
        updatedAt: now,
      });
      await recordFlowEvent(tx, MERCHANT_EVENTS.flowCreated, flow, now);
      return flow;
    },
  );
  ctx.merchantCache?.invalidate(clientId, command.merchantId);
  ctx.outbox.kick();
  return created;
}
