import { errors, requireClientId, withTransaction } from '@platform/kit';
import { isPaymentProvider, parseProviderChanges, priorityTaken, type Provider } from '../domain/merchant';
import type { MerchantContext } from './context';
import { recordProviderUpdated } from '../events/merchantEvents';
import { registerNotificationUrls } from './notificationUrls';

export interface UpdateProviderInput {
  clientId: string;
  id: string;
  name?: string;
  priority?: number;
  credentials?: Record<string, unknown>;
  options?: Record<string, unknown>;
}

export async function updateProvider(ctx: MerchantContext, input: UpdateProviderInput): Promise<Provider> {
  const clientId = requireClientId(input.clientId);
  const changes = parseProviderChanges({ name: input.name, priority: input.priority, credentials: input.credentials, options: input.options });
  const updated = await withTransaction(ctx.pool, async (tx) => {
    const seen = await ctx.merchants.findProvider(tx, clientId, input.id);
    if (!seen) throw errors.notFound('Provider', input.id);
    // Changes to the providers of one merchant queue on the merchant row, so the priority check below holds until commit.
    const merchant = await ctx.merchants.findMerchant(tx, clientId, seen.merchantId, { forUpdate: true });
    const current = merchant ? await ctx.merchants.findProvider(tx, clientId, input.id) : null;
    if (!current) throw errors.notFound('Provider', input.id);

    const now = ctx.clock.now();
    const next: Provider = {
      ...current,
      name: changes.name ?? current.name,
      priority: changes.priority ?? current.priority,
      credentialsType: changes.credentials?.type ?? current.credentialsType,
      options: changes.options ?? current.options,
      updatedAt: now,
    };
    if (isPaymentProvider(next.credentialsType) && (await ctx.merchants.paymentPriorityTaken(tx, current.merchantId, next.priority, current.id))) {
      throw priorityTaken(next.priority);
    }
    if (
      isPaymentProvider(current.credentialsType) &&
      !isPaymentProvider(next.credentialsType) &&
      (await ctx.merchants.providerInFlow(tx, clientId, current.merchantId, current.id))
    ) {
      throw errors.businessRule('provider_in_flow', 'A provider named by a routing flow must stay a payment provider');
    }
    const sealed = changes.credentials ? await ctx.vault.seal('provider-credentials', JSON.stringify(changes.credentials)) : undefined;
    const saved = await ctx.merchants.updateProvider(tx, next, sealed);
    if (!saved) throw errors.notFound('Provider', input.id);
    await recordProviderUpdated(tx, saved, now);
    return saved;
  });
  ctx.merchantCache?.invalidate(clientId, updated.merchantId);
  ctx.outbox.kick();
  // New credentials may name another account (or another Pix key): its provider learns where to post.
  if (changes.credentials) await registerNotificationUrls(ctx, [{ id: updated.id, credentials: changes.credentials, options: updated.options }]);
  return updated;
}
