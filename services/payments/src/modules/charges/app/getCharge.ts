import { errors, requireClientId } from '@platform/kit';
import type { Charge } from '../domain/charge';
import type { ChargeDeps } from './deps';

export async function getCharge(deps: Pick<ChargeDeps, 'pool' | 'store'>, input: { clientId: string; id: string }): Promise<Charge> {
  const clientId = requireClientId(input.clientId);
  const charge = await deps.store.findById(deps.pool, clientId, input.id);
  if (!charge) throw errors.notFound('Charge', input.id);
  return charge;
}
