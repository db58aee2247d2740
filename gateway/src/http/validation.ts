import type { FieldViolation } from '@platform/kit';
import type { z } from '../openapi/zod';

const parseOptions = {
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : undefined),
} as const;

/**
 * Parses one part of a request. Problems are added to `violations` with dotted field paths
 * (`document.number`); the part itself names a problem that has no path (a body that is not an object).
 */
export function parsePart<S extends z.ZodType>(schema: S, input: unknown, part: string, violations: FieldViolation[]): z.output<S> | undefined {
  const result = schema.safeParse(input, parseOptions);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    violations.push({ field: issue.path.length > 0 ? issue.path.map(String).join('.') : part, message: issue.message });
  }
  return undefined;
}

/**
 * A schema-level message for a wrong value. A schema's own message wins over the per-parse one above, so a missing
 * value is named here too.
 */
export function requiredOr(message: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'is required' : message);
}
