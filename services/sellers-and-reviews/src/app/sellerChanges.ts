import { randomUUID } from 'node:crypto';
import { errors, withTransaction, type Queryable } from '@platform/kit';
import { mergeChanges, parseSellerInput, sellerAsInput, stamp, type JsonObject, type Seller, type SellerInput } from '../domain/seller';
import { recordSellerEvent, recordStatusEvent, SELLER_EVENTS } from '../events/sellerEvents';
import type { SellerDeps } from './deps';

/** Hooks run in the transaction that created a seller (review processes waiting for its document). */
export type SellerCreatedHook = (tx: Queryable, seller: Seller, now: Date) => Promise<void>;

export function describe(input: SellerInput, previous: Seller | null, now: Date): Pick<Seller, 'merchantId' | 'mcc' | 'owner' | 'business' | 'bankAccount' | 'transferPolicy' | 'metadata' | 'rateAgreements' | 'salesPlanId' | 'planId'> {
  return {
    merchantId: input.merchantId,
    mcc: String(input.mcc),
    owner: stamp(input.owner as JsonObject, previous?.owner, now, randomUUID)!,
    business: stamp((input.business ?? null) as JsonObject | null, previous?.business, now, randomUUID),
    bankAccount: stamp(input.bankAccount as JsonObject, previous?.bankAccount, now, randomUUID)!,
    transferPolicy: stamp((input.transferPolicy ?? null) as JsonObject | null, previous?.transferPolicy, now, randomUUID),
    metadata: input.metadata ?? null,
    rateAgreements: (input.rateAgreements ?? []) as JsonObject[],
    salesPlanId: input.salesPlanId ?? '',
    planId: input.planId ?? '',
  };
}

/** A planId names a plan of the client (payouts answers); an empty one means the client's default plan. */
export async function requirePlanOf(deps: SellerDeps, clientId: string, planId: string | undefined): Promise<void> {
  if (planId) await deps.plans.requirePlan(clientId, planId);
}

/** The seller with the changes merged over its fields, validated as a whole (400 naming each bad field). */
export function withChanges(seller: Seller, changes: JsonObject, now: Date): Seller {
  const input = parseSellerInput(mergeChanges(sellerAsInput(seller), changes), now);
  return { ...seller, ...describe(input, seller, now) };
}

/**
 * Reads the seller under lock, applies the change, tells each active provider link and stores it with its events.
 * Used by PATCH and by a finished registration review.
 */
export async function applySellerChange(
  deps: SellerDeps,
  clientId: string,
  id: string,
  change: (seller: Seller, now: Date) => Seller,
  tx?: Queryable,
): Promise<Seller> {
  const run = async (db: Queryable) => {
    const fresh = await deps.store.findById(db, clientId, id, { forUpdate: true });
    if (!fresh) throw errors.notFound('seller', id);
    const now = deps.clock.now();
    const next = { ...change(fresh, now), updatedAt: now };
    for (const link of next.providers) {
      const adapter = deps.adapters[link.providerType];
      if (!adapter || link.status !== 'active') continue;
      const answer = await adapter.update(next, link.externalId);
      Object.assign(link, answer, { updatedAt: now });
    }
    const stored = await deps.store.update(db, next);
    await recordSellerEvent(db, SELLER_EVENTS.updated, stored, now);
    await recordStatusEvent(db, fresh.status, stored, now);
    return stored;
  };
  const updated = tx ? await run(tx) : await withTransaction(deps.pool, run);
  deps.outbox?.kick();
  return updated;
}
