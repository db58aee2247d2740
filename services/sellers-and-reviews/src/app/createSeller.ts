import { randomUUID } from 'node:crypto';
import { checkBeforeChange, jsonCodec, requireClientId, withIdempotency } from '@platform/kit';
import { nextSellerStatus, parseSellerInput, type JsonObject, type ProviderLink, type Seller } from '../domain/seller';
import { recordSellerEvent, recordStatusEvent, SELLER_EVENTS } from '../events/sellerEvents';
import type { SellerDeps } from './deps';
import { describe, requirePlanOf, type SellerCreatedHook } from './sellerChanges';

export const CREATE_SELLER_OPERATION = 'sellers.create';

const sellerCodec = jsonCodec<Seller>();

/**
 * Validates the body (before the idempotency key is claimed), asks payments for the merchant's providers and payouts
 * for its plan (both scoped by client), registers the seller at each provider and stores it with its links and its
 * events in one transaction. The same X-Idempotency-Key answers the same seller again.
 */
export async function createSeller(
  deps: SellerDeps,
  command: { clientId: string; seller: JsonObject | undefined },
  onCreated: SellerCreatedHook[] = [],
  idempotencyKey?: string,
): Promise<Seller> {
  const clientId = requireClientId(command.clientId);
  const input = parseSellerInput(command.seller ?? {}, deps.clock.now());
  const created = await withIdempotency(
    deps.pool,
    { clientId, key: idempotencyKey, operation: CREATE_SELLER_OPERATION, request: command.seller ?? {}, codec: sellerCodec },
    {
      prepare: async () => {
        const providers = await checkBeforeChange(async () => {
          const found = await deps.merchants.providersOf(clientId, input.merchantId);
          await requirePlanOf(deps, clientId, input.planId);
          return found;
        });
        const now = deps.clock.now();
        const seller: Seller = {
          id: randomUUID(),
          clientId,
          status: 'pending',
          providers: [],
          createdAt: now,
          updatedAt: now,
          ...describe(input, null, now),
        };
        const links: ProviderLink[] = [];
        for (const provider of providers) {
          const adapter = deps.adapters[provider.type];
          const answer = adapter
            ? await adapter.register(seller)
            : { externalId: '', externalStatus: 'unsupported', externalStatusReason: `provider type ${provider.type} registers no sellers`, status: 'inactive' as const };
          links.push({ providerId: provider.id, providerType: provider.type, ...answer, createdAt: now, updatedAt: now });
        }
        seller.providers = links;
        seller.status = nextSellerStatus('pending', links.filter((l) => l.externalStatus !== 'unsupported'));
        return seller;
      },
      commit: async (tx, seller) => {
        const stored = await deps.store.insert(tx, seller);
        await recordSellerEvent(tx, SELLER_EVENTS.created, stored, seller.createdAt);
        await recordStatusEvent(tx, 'pending', stored, seller.createdAt);
        for (const hook of onCreated) await hook(tx, stored, seller.createdAt);
        return stored;
      },
    },
  );
  deps.outbox?.kick();
  return created;
}
