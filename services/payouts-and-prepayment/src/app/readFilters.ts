import { errors, isUuid } from '@platform/kit';
import { isIsoDate } from '../domain/calendar';

export const BATCH_STATUSES = ['pending', 'paid', 'failed', 'offset'];

/** A seller id as a filter: absent means the client's main account (balance and lists, as documented). */
export function sellerFilter(sellerId: string | undefined): string | undefined {
  if (sellerId === undefined || sellerId === '') return undefined;
  if (!isUuid(sellerId)) throw errors.validation('sellerId must be a UUID', [{ field: 'sellerId', message: 'must be a UUID' }]);
  return sellerId.toLowerCase();
}

export function dateFilter(value: string | undefined, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isIsoDate(value)) throw errors.validation(`${field} must be a date (YYYY-MM-DD)`, [{ field, message: 'must be a date (YYYY-MM-DD)' }]);
  return value;
}
