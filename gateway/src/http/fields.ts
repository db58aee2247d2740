import {
  AMOUNT_MAX,
  CURRENCY_MESSAGE,
  DATE_MESSAGE,
  DATE_RANGE,
  DATE_RANGE_MESSAGE,
  DATE_TIME_RANGE_MESSAGE,
  INT32_MAX,
  isCurrencyCode,
  isDateInRange,
  isInstantInRange,
  isWebUrl,
  WEB_URL_MESSAGE,
} from '@platform/api-model';
import { z } from '../openapi/zod';
import { requiredOr } from './validation';

/** The smallest value a PostgreSQL INTEGER (and a protobuf int32) holds. */
export const INT32_MIN = -INT32_MAX - 1;

/**
 * A whole number an INTEGER column holds: counts, installments, priorities, percentages in basis points, days,
 * seconds. Callers narrow the range further with `.min()`/`.max()`; the OpenAPI document shows the tightest bounds.
 */
export function int32(message = 'must be a whole number') {
  return z
    .int({ error: requiredOr(message) })
    .min(INT32_MIN, `must be at least ${INT32_MIN}`)
    .max(INT32_MAX, `must be at most ${INT32_MAX}`);
}

/** An amount in minor units: a BIGINT column, within the integers JavaScript holds exactly. */
export function amount(message = 'must be a whole number of minor units') {
  return z
    .int({ error: requiredOr(message) })
    .min(-AMOUNT_MAX, `must be at least ${-AMOUNT_MAX}`)
    .max(AMOUNT_MAX, `must be at most ${AMOUNT_MAX}`);
}

/**
 * An instant of a body or a query: RFC 3339 with its offset (`Z` or `±hh:mm`), within DATE_TIME_RANGE (0001-01-01 is
 * a slip, not an instant anyone means), read as a Date. Whether it must be past or future is the service's rule: it
 * reads its clock.
 */
export function dateTime() {
  return z.iso
    .datetime({ offset: true, error: requiredOr('must be an RFC 3339 date-time') })
    .refine((value) => isInstantInRange(new Date(value)), DATE_TIME_RANGE_MESSAGE)
    .transform((value) => new Date(value))
    .openapi({ type: 'string', format: 'date-time' });
}

/**
 * A calendar date (YYYY-MM-DD) of a body or a query: a real one (not 2026-02-30 nor 0000-00-00), from `earliest`
 * (default DATE_RANGE's) to DATE_RANGE's latest. Kept as its text.
 */
export function calendarDate(options: { earliest?: string } = {}) {
  const earliest = options.earliest ?? DATE_RANGE.earliest;
  const message = earliest === DATE_RANGE.earliest ? DATE_RANGE_MESSAGE : `must be a date from ${earliest} to ${DATE_RANGE.latest}`;
  return z.iso
    .date({ error: requiredOr(DATE_MESSAGE) })
    .refine((value) => isDateInRange(value) && value >= earliest, message)
    .openapi({ type: 'string', format: 'date' });
}

/** The first date a due date may name at the edge; the service refuses one before its today. */
export const DUE_DATE_EARLIEST = '2000-01-01';

/** A due date (a boleto's): a calendar date from DUE_DATE_EARLIEST on; the service refuses one before its today. */
export function dueDate() {
  return calendarDate({ earliest: DUE_DATE_EARLIEST });
}

/** A currency the platform takes (the ISO 4217 codes of currencies in circulation), any case, read upper case. */
export function currency() {
  return z
    .string({ error: requiredOr('must be a string') })
    .transform((value) => value.toUpperCase())
    .refine(isCurrencyCode, CURRENCY_MESSAGE)
    .openapi({ type: 'string', example: 'BRL', description: 'ISO 4217 code of a currency in circulation' });
}

/** An http or https URL with a host and without a user name or password, at most `maxLength` characters. */
export function webUrl(maxLength: number) {
  return z
    .string({ error: requiredOr('must be a string') })
    .max(maxLength, `must be at most ${maxLength} characters`)
    .refine((value) => isWebUrl(value.trim(), maxLength), WEB_URL_MESSAGE)
    .openapi({ type: 'string', format: 'uri', maxLength });
}

/** A whole number of a query string (page, limit), read from its text, within INTEGER. */
export function queryInt32(message = 'must be a whole number') {
  return z.coerce.number({ error: message }).int(message).min(INT32_MIN, `must be at least ${INT32_MIN}`).max(INT32_MAX, `must be at most ${INT32_MAX}`);
}

/** An amount in minor units in a query string, read from its text. */
export function queryAmount(message = 'must be a whole number of minor units') {
  return z.coerce.number({ error: message }).int(message).min(0, 'must be at least 0').max(AMOUNT_MAX, `must be at most ${AMOUNT_MAX}`);
}

/** A true/false flag in a query string. */
export function queryFlag() {
  return z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true');
}

/**
 * A query value listing one or more of `values`, comma-joined (a repeated key is read the same way); answers them
 * without repeats.
 */
export function commaJoined<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .preprocess((v) => (Array.isArray(v) ? v.join(',') : v), z.string())
    .transform((value, ctx) => {
      const parts = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      if (parts.length === 0 || parts.some((part) => !(values as readonly string[]).includes(part))) {
        ctx.addIssue({ code: 'custom', message: `must be one or more of ${values.join(', ')}, comma-joined` });
        return z.NEVER;
      }
      return [...new Set(parts)] as Array<T[number]>;
    })
    .openapi({ type: 'string', description: `One or more of ${values.join(', ')}, comma-joined`, example: values.slice(0, 2).join(',') });
}
