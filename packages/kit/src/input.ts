import type { z } from 'zod';
import { errors, type FieldViolation } from './errors';
import { isUuid } from './ids';

/**
 * Parses a request with a schema; a failure becomes one validation error naming every bad field, with an optional
 * prefix for fields of a nested part (`providers.0.priority`).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, message = 'Invalid request', prefix: readonly (string | number)[] = []): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details: FieldViolation[] = result.error.issues.map((i) => ({ field: [...prefix, ...i.path].map(String).join('.'), message: i.message }));
  throw errors.validation(message, details);
}

/**
 * The caller's client id, checked by every RPC: a service never trusts its caller. A client id that cannot exist
 * answers like an unknown one would for the resource asked (the gateway always sends a real one).
 */
export function requireClientId(clientId: string): string {
  if (!isUuid(clientId)) throw errors.validation('Invalid clientId', [{ field: 'clientId', message: 'must be a UUID' }]);
  return clientId.toLowerCase();
}
