import { errors } from '@platform/kit';
import type { Logo } from '../domain/logos';
import { isUuid } from '../domain/validation';
import type { AppDeps } from './deps';

/** Public by design (the hosted checkout shows it to anonymous payers): the random id is the only key. */
export async function getLogo(deps: AppDeps, input: { logoId: string }): Promise<Logo> {
  if (!isUuid(input.logoId)) throw errors.notFound('Logo', input.logoId);
  const logo = await deps.stores.logos.findById(deps.pool, input.logoId);
  if (!logo) throw errors.notFound('Logo', input.logoId);
  return logo;
}
