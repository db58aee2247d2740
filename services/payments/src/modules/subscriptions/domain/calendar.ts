/** When each cycle of a subscription falls due: its billing intervals and the calendar steps they take. */

export const INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Interval = (typeof INTERVALS)[number];

export function isInterval(value: string): value is Interval {
  return (INTERVALS as readonly string[]).includes(value);
}

export const DAY_MS = 86_400_000;

/** Calendar months per step of the monthly intervals. */
const INTERVAL_MONTHS: Readonly<Partial<Record<Interval, number>>> = { monthly: 1, quarterly: 3, yearly: 12 };
/** Days per step of the others. */
const INTERVAL_DAYS: Readonly<Partial<Record<Interval, number>>> = { daily: 1, weekly: 7 };

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (0-based) of `year`, Gregorian. */
export function daysInMonth(year: number, month: number): number {
  return month === 1 && isLeapYear(year) ? 29 : MONTH_DAYS[month] ?? 31;
}

/**
 * The due time of cycle `count` (0-based) of a schedule anchored at `anchor`, in UTC. Always computed from the
 * anchor, never from the previous due time, so a short month does not pull every later cycle earlier: from Jan 31
 * a monthly schedule falls on Feb 28 (29 in leap years), Mar 31, Apr 30... Same time of day as the anchor.
 */
export function addInterval(anchor: Date, interval: Interval, count: number): Date {
  const time = anchor.getTime();
  if (Number.isNaN(time)) throw new RangeError('The schedule anchor is not a valid time');
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`A cycle count must be a whole number from 0, not ${count}`);
  const days = INTERVAL_DAYS[interval];
  if (days !== undefined) return new Date(time + days * count * DAY_MS);
  const months = INTERVAL_MONTHS[interval];
  if (months === undefined) throw new RangeError(`Unknown interval ${String(interval)}`);
  const monthIndex = anchor.getUTCMonth() + months * count;
  const year = anchor.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const due = new Date(time);
  // setUTCFullYear, unlike Date.UTC, takes years below 100 literally.
  due.setUTCFullYear(year, month, day);
  return due;
}

/** The due time of cycle `number` (1-based): the first is due at the anchor. */
export function cycleDueAt(anchor: Date, interval: Interval, number: number): Date {
  if (!Number.isSafeInteger(number) || number < 1) throw new RangeError(`A cycle number must be a whole number from 1, not ${number}`);
  return addInterval(anchor, interval, number - 1);
}
