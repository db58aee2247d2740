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

/** The longest wait a receiver's Retry-After is honoured for; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 3_600_000;
/** The shortest: `0`, or a date already past, would otherwise retry at once, again and again. */
export const MIN_RETRY_AFTER_MS = 1_000;
/**
 * Attempts of one round whose wait a receiver set with Retry-After. They do not use up the schedule (a receiver
 * that asks for a minute would otherwise burn the days of retries in minutes), so they have a budget of their
 * own: past it, a 429 or 503 is a failure like any other and takes the next step of the schedule.
 */
export const MAX_RETRY_AFTER_ATTEMPTS = 24;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** RFC 9110 section 5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must still read. */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTH}) ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** A UTC instant from its parts, or null when they name no such instant (31 February, 25 o'clock). */
function utc(year: number, month: string, day: number, hour: number, minute: number, second: number): number | null {
  const monthIndex = MONTHS.indexOf(month);
  if (monthIndex < 0 || hour > 23 || minute > 59 || second > 60) return null;
  const at = new Date(Date.UTC(year, monthIndex, day, hour, minute, Math.min(second, 59)));
  return at.getUTCFullYear() === year && at.getUTCMonth() === monthIndex && at.getUTCDate() === day ? at.getTime() : null;
}

/** An HTTP-date in epoch milliseconds, or null when the text is none of its three forms. */
export function parseHttpDate(text: string, now: Date): number | null {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(Number(match[3]), match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6]));
  match = RFC_850.exec(text);
  if (match) {
    // A two-digit year more than 50 years ahead is the latest past year that ends in those digits (RFC 9110).
    const current = now.getUTCFullYear();
    let year = Math.floor(current / 100) * 100 + Number(match[3]);
    if (year > current + 50) year -= 100;
    return utc(year, match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6]));
  }
  match = ASCTIME.exec(text);
  if (match) return utc(Number(match[6]), match[1]!, Number(match[2]!.trim()), Number(match[3]), Number(match[4]), Number(match[5]));
  return null;
}

/**
 * How long a Retry-After header asks to wait, in milliseconds: delay-seconds or an HTTP-date (RFC 9110 section
 * 10.2.3), kept between MIN_RETRY_AFTER_MS and MAX_RETRY_AFTER_MS. Null when it is absent or malformed.
 */
export function retryAfterMs(header: string | null | undefined, now: Date): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  let delayMs: number;
  if (/^\d+$/.test(text)) {
    // Digits past what a number holds exactly are still "very long": the cap applies.
    delayMs = text.length > 12 ? MAX_RETRY_AFTER_MS : Number(text) * 1000;
  } else {
    const at = parseHttpDate(text, now);
    if (at === null) return null;
    delayMs = at - now.getTime();
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, delayMs));
}

/** The receiver's answer to one attempt. */
export interface AttemptAnswer {
  /** Null when no answer came. */
  statusCode: number | null;
  /** Its Retry-After header as sent, if any. */
  retryAfter?: string | null;
}

/** Where a delivery's round stands before an attempt. */
export interface RoundState {
  /** Failed attempts so far: the position in the schedule. */
  failures: number;
  /** Attempts so far whose wait the receiver set with Retry-After. */
  retryAfterAttempts: number;
}

/** What follows one attempt, by the receiver's answer and the round so far. */
export type AttemptOutcome =
  | { kind: 'succeeded' }
  /** 410 Gone: the receiver asks for no more deliveries; the webhook is disabled. */
  | { kind: 'gone' }
  /** `receiverSet`: the delay is the receiver's Retry-After, and the schedule stays where it was. */
  | { kind: 'retry'; delayMs: number; receiverSet: boolean }
  | { kind: 'failed' };

/**
 * A 2xx is a success and 410 stops everything. A 429 or 503 with a valid Retry-After is tried again after the wait
 * it asks for (see MAX_RETRY_AFTER_ATTEMPTS), without moving along the schedule. Any other answer, or none, is a
 * failure that takes the next delay of the schedule, until the schedule runs out.
 */
export function outcomeOf(answer: AttemptAnswer, round: RoundState, schedule: readonly number[], now: Date): AttemptOutcome {
  const { statusCode } = answer;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: 'succeeded' };
  if (statusCode === 410) return { kind: 'gone' };
  if ((statusCode === 429 || statusCode === 503) && round.retryAfterAttempts < MAX_RETRY_AFTER_ATTEMPTS) {
    const asked = retryAfterMs(answer.retryAfter, now);
    if (asked !== null) return { kind: 'retry', delayMs: asked, receiverSet: true };
  }
  const delayMs = schedule[round.failures];
  return delayMs === undefined ? { kind: 'failed' } : { kind: 'retry', delayMs, receiverSet: false };
}
