import { invalid, isUuid } from '../domain/validation';

/** '' selects the client default (null); anything else must be a merchant id. */
export function merchantScope(merchantId: string): string | null {
  if (merchantId === '') return null;
  if (!isUuid(merchantId)) invalid([{ field: 'merchantId', message: 'must be a UUID' }]);
  return merchantId;
}
