import { errors, requireClientId, withTransaction } from '@platform/kit';
import type { Seller } from '../domain/seller';
import { recordStatusEvent } from '../events/sellerEvents';
import type { SellerDeps } from './deps';

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
