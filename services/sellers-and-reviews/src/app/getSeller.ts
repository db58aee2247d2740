import { errors, requireClientId } from '@platform/kit';
import type { Seller } from '../domain/seller';
import type { SellerDeps } from './deps';

export async function getSeller(deps: SellerDeps, command: { clientId: string; id: string }): Promise<Seller> {
  const clientId = requireClientId(command.clientId);
  const seller = await deps.store.findById(deps.pool, clientId, command.id);
  if (!seller) throw errors.notFound('seller', command.id);
  return seller;
}
