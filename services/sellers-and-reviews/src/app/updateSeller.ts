import { errors, requireClientId } from '@platform/kit';
import { mergeChanges, parseSellerInput, sellerAsInput, type JsonObject, type Seller } from '../domain/seller';
import type { SellerDeps } from './deps';
import { requirePlanOf, withChanges, applySellerChange } from './sellerChanges';
import { getSeller } from './getSeller';

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
