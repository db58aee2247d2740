import { randomUUID } from 'node:crypto';
import type { sellers as contracts } from '@platform/contracts';
import { checkBeforeChange, errors, jsonCodec, pageMeta, requireClientId, toPage, withIdempotency, withTransaction, type PageMeta, type Queryable } from '@platform/kit';
import {
  mergeChanges,
  nextSellerStatus,
  parseSellerInput,
  sellerAsInput,
  SELLER_STATUSES,
  stamp,
  type JsonObject,
  type ProviderLink,
  type Seller,
  type SellerInput,
} from '../domain/seller';
import { recordSellerEvent, recordStatusEvent, SELLER_EVENTS } from '../events/sellerEvents';
import type { SellerDeps } from './deps';

/** Hooks run in the transaction that created a seller (review processes waiting for its document). */
export type SellerCreatedHook = (tx: Queryable, seller: Seller, now: Date) => Promise<void>;

function describe(input: SellerInput, previous: Seller | null, now: Date): Pick<Seller, 'merchantId' | 'mcc' | 'owner' | 'business' | 'bankAccount' | 'transferPolicy' | 'metadata' | 'rateAgreements' | 'salesPlanId' | 'planId'> {
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
async function requirePlanOf(deps: SellerDeps, clientId: string, planId: string | undefined): Promise<void> {
  if (planId) await deps.plans.requirePlan(clientId, planId);
}

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

export async function getSeller(deps: SellerDeps, command: { clientId: string; id: string }): Promise<Seller> {
  const clientId = requireClientId(command.clientId);
  const seller = await deps.store.findById(deps.pool, clientId, command.id);
  if (!seller) throw errors.notFound('seller', command.id);
  return seller;
}

export async function listSellers(deps: SellerDeps, request: contracts.ListSellersRequest): Promise<{ items: Seller[]; meta: PageMeta }> {
  const clientId = requireClientId(request.clientId);
  const statuses = request.statuses.filter((v) => v !== '');
  if (statuses.some((v) => !(SELLER_STATUSES as readonly string[]).includes(v))) {
    throw errors.validation(`status must be one of ${SELLER_STATUSES.join(', ')}`, [{ field: 'status', message: `must be one of ${SELLER_STATUSES.join(', ')}` }]);
  }
  const page = toPage(request.page);
  const { items, totalItems } = await deps.store.list(
    deps.pool,
    clientId,
    { id: request.id, email: request.email, statuses, businessName: request.businessName, merchantId: request.merchantId },
    page,
  );
  return { items, meta: pageMeta(page, items.length, totalItems) };
}

/** Merges the changes over the stored seller, validates the result as a whole (a planId given: payouts is asked) and tells the providers. */
export async function updateSeller(deps: SellerDeps, command: { clientId: string; id: string; changes: JsonObject | undefined }): Promise<Seller> {
  const clientId = requireClientId(command.clientId);
  const changes = command.changes ?? {};
  const current = await getSeller(deps, { clientId, id: command.id });
  if (current.status === 'inactive') throw errors.businessRule('seller_inactive', `seller ${current.id} is inactive`);
  if (changes.merchantId !== undefined && changes.merchantId !== current.merchantId) {
    throw errors.validation('merchantId cannot be changed', [{ field: 'merchantId', message: 'cannot be changed' }]);
  }
  const merged = parseSellerInput(mergeChanges(sellerAsInput(current), changes), deps.clock.now());
  if (changes.planId !== undefined) await requirePlanOf(deps, clientId, merged.planId);
  return applySellerChange(deps, clientId, current.id, (fresh, now) => withChanges(fresh, changes, now));
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

/** A deleted seller stays readable as `inactive`, and so do its provider links. */
export async function deleteSeller(deps: SellerDeps, command: { clientId: string; id: string }): Promise<Seller> {
  const clientId = requireClientId(command.clientId);
  const deleted = await withTransaction(deps.pool, async (tx) => {
    const fresh = await deps.store.findById(tx, clientId, command.id, { forUpdate: true });
    if (!fresh) throw errors.notFound('seller', command.id);
    if (fresh.status === 'inactive') return fresh;
    const now = deps.clock.now();
    const next: Seller = {
      ...fresh,
      status: 'inactive',
      providers: fresh.providers.map((l) => ({ ...l, status: 'inactive', updatedAt: now })),
      updatedAt: now,
    };
    const stored = await deps.store.update(tx, next);
    await recordStatusEvent(tx, fresh.status, stored, now);
    return stored;
  });
  deps.outbox?.kick();
  return deleted;
}
