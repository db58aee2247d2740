import { errors, type FieldViolation } from '@platform/kit';
import type { z } from 'zod';

export { isUuid } from '@platform/kit';

export function invalid(details: FieldViolation[], message = 'Invalid request'): never {
  throw errors.validation(message, details);
}

/** Parses with a schema; a failure becomes one validation error naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  return invalid(result.error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message })));
}
