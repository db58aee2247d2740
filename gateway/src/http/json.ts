import { AppError } from '@platform/kit';
import { z } from '../openapi/zod';
import { requiredOr } from './validation';

/** RFC 3339 in UTC with milliseconds, or null when the upstream left the timestamp unset. */
export function timestampOrNull(value: Date | undefined): string | null {
  return value ? value.toISOString() : null;
}

/** Optional text is null in answers when the upstream has no value (proto3 sends an empty string). */
export function textOrNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

/** Empty strings in a request mean "not given". */
export function blankToUndefined(value: unknown): unknown {
  return value === '' ? undefined : value;
}

/** A timestamp every stored record has; its absence is an upstream contract bug, so it fails as internal. */
export function requiredTimestamp(value: Date | undefined, field: string): string {
  if (!value) throw new AppError('internal', `upstream answer without ${field}`);
  return value.toISOString();
}

/** Optional numbers are null in answers when the upstream left them unset. */
export function numberOrNull(value: number | undefined): number | null {
  return value === undefined ? null : value;
}

/** A free-form JSON object of an answer (a google.protobuf.Struct upstream), or null when unset. */
export function objectOrNull(value: { [key: string]: unknown } | undefined): Record<string, unknown> | null {
  return value ?? null;
}

/** A free-form JSON object of a request, carried upstream as a google.protobuf.Struct. */
export const JsonObject = z.record(z.string(), z.unknown(), { error: requiredOr('must be an object') });

/** A free-form JSON object of an answer. */
export const JsonObjectOut = z.record(z.string(), z.unknown());
