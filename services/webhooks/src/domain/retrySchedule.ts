/** The product's schedule: after a failed attempt, the next one comes this long after it. */
export const DEFAULT_RETRY_SCHEDULE = '5m,45m,6h,1d,2d,4d';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const MAX_DELAY_MS = 30 * 86_400_000;

/**
 * Parses comma-separated durations: a bare number is milliseconds, or a number with a unit (ms, s, m, h, d).
 * An empty string is a schedule without retries. Throws with a message naming the bad entry.
 */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === '') return [];
  return text.split(',').map((raw) => {
    const entry = raw.trim();
    const match = /^(\d+)\s*(ms|s|m|h|d)?$/i.exec(entry);
    if (!match) throw new Error(`"${entry}" is not a duration: use milliseconds or a number with ms, s, m, h or d`);
    const ms = Number(match[1]) * UNIT_MS[(match[2] ?? 'ms').toLowerCase()]!;
    if (ms <= 0 || ms > MAX_DELAY_MS) throw new Error(`"${entry}" must be more than 0 and at most 30 days`);
    return ms;
  });
}

/** What follows one attempt, by the receiver's answer and the failures before it. */
export type AttemptOutcome =
  | { kind: 'succeeded' }
  /** 410 Gone: the receiver asks for no more deliveries; the webhook is disabled. */
  | { kind: 'gone' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed' };

/**
 * A 2xx is a success and 410 stops everything; any other answer, or none, is a failure that takes the next delay
 * of the schedule, until the schedule runs out.
 */
export function outcomeOf(statusCode: number | null, failuresBefore: number, schedule: readonly number[]): AttemptOutcome {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: 'succeeded' };
  if (statusCode === 410) return { kind: 'gone' };
  const delayMs = schedule[failuresBefore];
  return delayMs === undefined ? { kind: 'failed' } : { kind: 'retry', delayMs };
}
