import { z } from '../openapi/zod';
import { requiredOr } from './validation';

/** The answer helpers live with the public shapes; kept here for the gateway's own mappers. */
export { numberOrNull, objectOrNull, requiredTimestamp, textOrNull, timestampOrNull } from '@platform/api-model';

/** Empty strings in a request mean "not given". */
export function blankToUndefined(value: unknown): unknown {
  return value === '' ? undefined : value;
}

/**
 * Limits of a free-form object, far below what any hop can choke on (JSON parse, google.protobuf.Struct encode and
 * decode, which stop at 100 levels, JSONB): the object itself is level 1.
 */
export const JSON_OBJECT_LIMITS = { depth: 8, keys: 1_000, bytes: 16 * 1024 } as const;

/** Why a free-form value is over the limits, or undefined. Iterative: a deep value cannot exhaust the stack. */
export function jsonObjectProblem(value: unknown): string | undefined {
  const { depth: maxDepth, keys: maxKeys, bytes: maxBytes } = JSON_OBJECT_LIMITS;
  let keys = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > maxDepth) return `must not be nested more than ${maxDepth} levels deep`;
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value as Record<string, unknown>);
    if (!Array.isArray(item.value)) keys += children.length;
    if (keys > maxKeys) return `must have at most ${maxKeys} keys`;
    for (const child of children) stack.push({ value: child, depth: item.depth + 1 });
  }
  if (Buffer.byteLength(JSON.stringify(value)) > maxBytes) return `must be at most ${maxBytes} bytes as JSON`;
  return undefined;
}

/** A free-form JSON object of a request, carried upstream as a google.protobuf.Struct; bounded in depth and size. */
export const JsonObject = z
  .record(z.string(), z.unknown(), { error: requiredOr('must be an object') })
  .superRefine((value, ctx) => {
    const problem = jsonObjectProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .openapi({
    description: `Free-form; at most ${JSON_OBJECT_LIMITS.depth} levels deep, ${JSON_OBJECT_LIMITS.keys} keys and ${JSON_OBJECT_LIMITS.bytes} bytes as JSON`,
  });

/** A free-form JSON object of an answer. */
export const JsonObjectOut = z.record(z.string(), z.unknown());
