import { AMOUNT_MAX, INT32_MAX } from '@platform/api-model';
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

/** An instant of a body or a query: RFC 3339 with its offset (`Z` or `±hh:mm`), read as a Date. */
export function dateTime() {
  return z.iso
    .datetime({ offset: true, error: requiredOr('must be an RFC 3339 date-time') })
    .transform((value) => new Date(value))
    .openapi({ type: 'string', format: 'date-time' });
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
