import { AppError } from '@platform/kit';

/** Small rules every public mapper follows: proto3's zero values ("not given") become null in JSON. */

/** RFC 3339 in UTC with milliseconds, or null when the upstream left the timestamp unset. */
export function timestampOrNull(value: Date | undefined): string | null {
  return value ? value.toISOString() : null;
}

/** Optional text is null in answers when the upstream has no value (proto3 sends an empty string). */
export function textOrNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
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

/** Zero is proto3's "unset" for counts that are never really zero (seconds of a Pix, a card's month). */
export function positiveOrNull(value: number): number | null {
  return value > 0 ? value : null;
}
