import { errors } from '@platform/kit';
import { invalid, isUuid } from '../domain/validation';

/** A client id that cannot exist answers like an unknown one. */
export function requireClientId(clientId: string): string {
  if (!isUuid(clientId)) throw errors.notFound('Client', clientId);
  return clientId;
}

/** '' selects the client default (null); anything else must be a merchant id. */
export function merchantScope(merchantId: string): string | null {
  if (merchantId === '') return null;
  if (!isUuid(merchantId)) invalid([{ field: 'merchantId', message: 'must be a UUID' }]);
  return merchantId;
}

export function describeScope(merchantId: string | null): string {
  return merchantId === null ? 'the client default' : `merchant ${merchantId}`;
}
