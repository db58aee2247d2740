import Holidays from 'date-holidays';

/**
 * Calendar dates are strings 'YYYY-MM-DD' in Brasília time (America/Sao_Paulo). Business days are the days a
 * Brazilian bank settles: not Saturday or Sunday, not a national holiday, not a bank holiday (Carnival Monday and
 * Tuesday, Corpus Christi). 20 November is a national holiday.
 */
export const CALENDAR_NAME = 'BR: national and bank holidays (date-holidays)';

export const TIME_ZONE = 'America/Sao_Paulo';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Whether `value` is a real calendar date written 'YYYY-MM-DD' (2026-02-30 is not). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Days since 1970-01-01 of a calendar date; throws on anything that is not a real 'YYYY-MM-DD'. */
function dayNumber(date: string): number {
  if (!isIsoDate(date)) throw new Error(`not a calendar date 'YYYY-MM-DD': ${String(date)}`);
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

function fromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `date` plus `days` calendar days (`days` may be negative). */
export function addDays(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new Error(`days must be an integer, got ${days}`);
  return fromDayNumber(dayNumber(date) + days);
}

/** Calendar days from `from` to `to` (to − from): daysBetween('2026-01-30', '2026-03-01') = 30. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(dayNumber(date) * DAY_MS).getUTCDay();
}

const wallClock = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The wall-clock fields of an instant in Brasília. */
function brasiliaParts(instant: Date): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const p of wallClock.formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** Milliseconds Brasília's wall clock is ahead of UTC at `instant` (negative: -3 h today, -2 h in the old summer time). */
function offsetAt(instant: Date): number {
  const p = brasiliaParts(instant);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The calendar date in Brasília of an instant: 2026-05-06T02:00Z is still 2026-05-05 there. */
export function brasiliaDate(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new Error('invalid instant');
  const p = brasiliaParts(instant);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/**
 * The instant at which Brasília's wall clock shows `hour:minute` on `date`. The offset comes from the time-zone
 * database (no fixed -03:00), so dates of the former summer time are right too; a wall-clock time skipped by a
 * clock change moves forward by the change.
 */
export function brasiliaInstant(date: string, hour: number, minute: number): Date {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new Error(`hour must be 0..23, got ${hour}`);
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw new Error(`minute must be 0..59, got ${minute}`);
  const wall = dayNumber(date) * DAY_MS + (hour * 60 + minute) * 60_000;
  let guess = wall - offsetAt(new Date(wall));
  const second = wall - offsetAt(new Date(guess));
  if (second !== guess) guess = Math.max(guess, second);
  return new Date(guess);
}

/**
 * Brazilian business days: holidays of type `public` (national) and `bank` from date-holidays, plus weekends. The
 * holidays of a year are computed once and kept.
 */
export class BusinessCalendar {
  private readonly holidays = new Holidays('BR', { types: ['public', 'bank'] });
  private readonly years = new Map<number, ReadonlySet<string>>();

  /** The holiday dates of a year (national and bank). */
  holidaysOf(year: number): ReadonlySet<string> {
    let dates = this.years.get(year);
    if (!dates) {
      dates = new Set(
        this.holidays
          .getHolidays(year)
          .filter((h) => h.type === 'public' || h.type === 'bank')
          .map((h) => h.date.slice(0, 10)),
      );
      this.years.set(year, dates);
    }
    return dates;
  }

  isBusinessDay(date: string): boolean {
    const day = weekday(date);
    if (day === 0 || day === 6) return false;
    return !this.holidaysOf(Number(date.slice(0, 4))).has(date);
  }

  /** `date` when it is a business day, else the next business day. */
  onOrAfter(date: string): string {
    let d = date;
    for (let i = 0; i < 366; i += 1) {
      if (this.isBusinessDay(d)) return d;
      d = addDays(d, 1);
    }
    throw new Error(`no business day within a year of ${date}`);
  }

  /** The first business day strictly after `date`. */
  nextAfter(date: string): string {
    return this.onOrAfter(addDays(date, 1));
  }
}
