import { errors, type FieldViolation } from '@platform/kit';
import { isPaymentType, PAYMENT_TYPES, type PaymentType } from './charge';
import { isChargeStatus, type ChargeStatus } from './chargeStatus';
import { isCalendarDate, nonEmpty } from './values';

/** The filters of a charge list. */

export interface ChargeFilters {
  merchantId?: string;
  id?: string;
  sessionId?: string;
  statuses?: ChargeStatus[];
  paymentTypes?: PaymentType[];
  orderId?: string;
  providerTypes?: string[];
  originalAmount?: number;
  /** true: only charges with split rules; false: only charges without. */
  hasSplitRules?: boolean;
  /** created_at >= createdFrom and < createdUntil (the `created` filter). */
  createdFrom?: Date;
  createdUntil?: Date;
  /** created_at > createdAfter (`created.gt`) and < createdBefore (`created.lt`). */
  createdAfter?: Date;
  createdBefore?: Date;
}

export interface ChargeFilterInput {
  merchantId?: string;
  id?: string;
  sessionId?: string;
  status?: string[];
  paymentType?: string[];
  orderId?: string;
  created?: string;
  createdGt?: Date;
  createdLt?: Date;
  providerType?: string[];
  originalAmount?: number;
  hasSplitRules?: boolean;
}

const DAY_MS = 86_400_000;

/** Values that may come repeated and comma-joined, lower-cased, without blanks. */
function commaJoined(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter((v) => v !== '');
}

/**
 * An empty filter is no filter. Statuses, payment types and provider types may come comma-joined. `created` is a day (YYYY-MM-DD, UTC), or an
 * instant that matches charges created in that millisecond.
 */
export function parseChargeFilters(input: ChargeFilterInput): ChargeFilters {
  const problems: FieldViolation[] = [];
  const filters: ChargeFilters = {};
  const text = (v: string | undefined) => nonEmpty(v);
  const merchantId = text(input.merchantId);
  if (merchantId) filters.merchantId = merchantId.toLowerCase();
  const id = text(input.id);
  if (id) filters.id = id.toLowerCase();
  const sessionId = text(input.sessionId);
  if (sessionId) filters.sessionId = sessionId.toLowerCase();
  const statuses = commaJoined(input.status);
  if (statuses.length > 0) {
    const unknown = statuses.filter((s) => !isChargeStatus(s));
    if (unknown.length > 0) problems.push({ field: 'status', message: `unknown status ${unknown.join(', ')}` });
    else filters.statuses = [...new Set(statuses)] as ChargeStatus[];
  }
  const paymentTypes = commaJoined(input.paymentType);
  if (paymentTypes.length > 0) {
    if (!paymentTypes.every(isPaymentType)) problems.push({ field: 'paymentType', message: `must be one or more of ${PAYMENT_TYPES.join(', ')}` });
    else filters.paymentTypes = [...new Set(paymentTypes)];
  }
  const orderId = text(input.orderId);
  if (orderId) filters.orderId = orderId;
  const providerTypes = commaJoined(input.providerType).map((t) => t.toUpperCase());
  if (providerTypes.length > 0) filters.providerTypes = [...new Set(providerTypes)];
  if (input.originalAmount !== undefined) filters.originalAmount = input.originalAmount;
  if (input.hasSplitRules !== undefined) filters.hasSplitRules = input.hasSplitRules;
  const created = text(input.created);
  if (created) {
    if (isCalendarDate(created)) {
      filters.createdFrom = new Date(`${created}T00:00:00.000Z`);
      filters.createdUntil = new Date(filters.createdFrom.getTime() + DAY_MS);
    } else if (/^\d{4}-\d{2}-\d{2}T/.test(created) && !Number.isNaN(Date.parse(created))) {
      filters.createdFrom = new Date(Date.parse(created));
      filters.createdUntil = new Date(filters.createdFrom.getTime() + 1);
    } else {
      problems.push({ field: 'created', message: 'must be a date (YYYY-MM-DD) or an RFC 3339 instant' });
    }
  }
  if (input.createdGt) filters.createdAfter = input.createdGt;
  if (input.createdLt) filters.createdBefore = input.createdLt;
  if (problems.length > 0) throw errors.validation('Invalid filters', problems);
  return filters;
}
