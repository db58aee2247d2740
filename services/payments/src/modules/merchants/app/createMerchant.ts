import { randomUUID } from 'node:crypto';
import { errors, jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import { parseNewMerchant, type CreateMerchantInput, type Merchant } from '../domain/merchant';
import type { MerchantContext } from './context';
import { MERCHANT_EVENTS, recordMerchantEvent } from '../events/merchantEvents';
import { registerNotificationUrls } from './notificationUrls';

export const CREATE_MERCHANT_OPERATION = 'payments.merchants.create';

/** The idempotency record keeps the answer as the kit's JSON of the domain result, as every payments operation does. */
const merchantCodec = jsonCodec<Merchant>();

export async function createMerchant(
  ctx: MerchantContext,
  command: CreateMerchantInput & { clientId: string },
  idempotencyKey?: string,
): Promise<Merchant> {
  const clientId = requireClientId(command.clientId);
  const input = parseNewMerchant(command);
  // The idempotency record keeps a hash of the request; the credentials enter it only as a keyed MAC.
  const request = {
    ...command,
    providers: command.providers.map((p) => ({ ...p, credentials: ctx.vault.fingerprint(`credentials:${JSON.stringify(p.credentials ?? {})}`) })),
  };
  const saved: Parameters<typeof registerNotificationUrls>[1] = [];
  const created = await withIdempotency(
    ctx.pool,
    { clientId, key: idempotencyKey, operation: CREATE_MERCHANT_OPERATION, request, codec: merchantCodec },
    async (tx) => {
      const now = ctx.clock.now();
      const id = randomUUID();
      await ctx.merchants.insertMerchant(tx, {
        id,
        clientId,
        mcc: input.mcc,
        name: input.name,
        merchantName: input.merchantName,
        merchantUrl: input.merchantUrl,
        createdAt: now,
      });
      saved.length = 0;
      for (const provider of input.providers) {
        const providerId = randomUUID();
        saved.push({ id: providerId, credentials: provider.credentials, options: provider.options });
        await ctx.merchants.insertProvider(tx, {
          id: providerId,
          clientId,
          merchantId: id,
          name: provider.name,
          priority: provider.priority,
          credentialsType: provider.credentials.type,
          credentialsSealed: await ctx.vault.seal('provider-credentials', JSON.stringify(provider.credentials)),
          options: provider.options,
          createdAt: now,
        });
      }
      const merchant = await ctx.merchants.findMerchant(tx, clientId, id);
      if (!merchant) throw errors.notFound('Merchant', id);
      await recordMerchantEvent(tx, MERCHANT_EVENTS.merchantCreated, merchant, now);
      return merchant;
    },
  );
  ctx.merchantCache?.invalidate(clientId, created.id);
  ctx.outbox.kick();
  // Empty when the answer was a replay: that request registered them.
  await registerNotificationUrls(ctx, saved);
  return created;
}
