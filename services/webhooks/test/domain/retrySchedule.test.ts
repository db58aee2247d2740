import {
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRY_AFTER_ATTEMPTS,
  MIN_RETRY_AFTER_MS,
  outcomeOf,
  parseHttpDate,
  parseRetrySchedule,
  retryAfterMs,
} from '../../src/domain/retrySchedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('parseRetrySchedule', () => {
  it('reads the default as the product schedule: +5 min, +45 min, +6 h, +1 d, +2 d, +4 d', () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([5 * MINUTE, 45 * MINUTE, 6 * HOUR, DAY, 2 * DAY, 4 * DAY]);
  });

  it('reads bare numbers as milliseconds and every unit, with spaces and any case', () => {
    expect(parseRetrySchedule('200, 1500 ,3s, 250ms,2M,1H,1d')).toEqual([200, 1500, 3000, 250, 2 * MINUTE, HOUR, DAY]);
  });

  it('reads an empty schedule as no retries', () => {
    expect(parseRetrySchedule('')).toEqual([]);
    expect(parseRetrySchedule('  ')).toEqual([]);
  });

  it.each(['5 minutes', '1.5s', '-1', '0', 'abc', '5m,,6h', '31d'])('refuses %p naming the entry', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow(/"/);
  });
});

describe('retryAfterMs', () => {
  const now = new Date('2026-11-22T03:10:48.000Z');

  it('reads delay-seconds', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(' 120 ', now)).toBe(120_000);
    expect(retryAfterMs('3600', now)).toBe(HOUR);
  });

  it('reads an HTTP-date in each of its three forms as the time left until it', () => {
    expect(retryAfterMs('Sun, 22 Nov 2026 03:11:18 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sunday, 22-Nov-26 03:11:18 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun Nov 22 03:11:18 2026', now)).toBe(30_000);
    expect(retryAfterMs('Sun Nov  2 03:11:18 2026', new Date('2026-11-02T03:10:48.000Z'))).toBe(30_000);
  });

  it('caps a wait at 1 hour, and a past date or 0 waits a second', () => {
    expect(retryAfterMs('3601', now)).toBe(HOUR);
    expect(retryAfterMs('86400', now)).toBe(HOUR);
    expect(retryAfterMs('99999999999999999999999', now)).toBe(HOUR);
    expect(retryAfterMs('Mon, 23 Nov 2026 03:10:48 GMT', now)).toBe(HOUR);
    expect(retryAfterMs('0', now)).toBe(MIN_RETRY_AFTER_MS);
    expect(retryAfterMs('Fri, 31 Dec 1999 23:59:59 GMT', now)).toBe(MIN_RETRY_AFTER_MS);
  });

  it.each([
    [undefined],
    [null],
    [''],
    ['-5'],
    ['1.5'],
    ['2s'],
    ['0x10'],
    ['soon'],
    ['2026-11-22T03:11:18Z'],
    ['Sun, 22 Nov 2026 03:11:18 UTC'],
    ['Sun, 31 Feb 2026 03:11:18 GMT'],
    ['Sun, 22 Nov 2026 25:11:18 GMT'],
    ['sun, 22 nov 2026 03:11:18 gmt'],
  ])('answers null for %p', (header) => {
    expect(retryAfterMs(header, now)).toBeNull();
  });
});

describe('parseHttpDate', () => {
  it('reads a two-digit year more than 50 years ahead as the century before (RFC 9110)', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(new Date(parseHttpDate('Thursday, 01-Jan-76 00:00:00 GMT', now)!).getUTCFullYear()).toBe(2076);
    expect(new Date(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now)!).toISOString()).toBe('1994-11-06T08:49:37.000Z');
  });
});

describe('outcomeOf', () => {
  const schedule = [100, 200, 300];
  const now = new Date('2026-11-22T03:10:48.000Z');
  const round = (failures: number, retryAfterAttempts = 0) => ({ failures, retryAfterAttempts });
  const answer = (statusCode: number | null, retryAfter?: string) => ({ statusCode, retryAfter });

  it('takes any 2xx as delivered', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(outcomeOf(answer(status), round(0), schedule, now)).toEqual({ kind: 'succeeded' });
  });

  it('stops on 410 Gone', () => {
    expect(outcomeOf(answer(410, '5'), round(0), schedule, now)).toEqual({ kind: 'gone' });
  });

  it('retries any other answer, or none, on the schedule, then fails', () => {
    expect(outcomeOf(answer(500), round(0), schedule, now)).toEqual({ kind: 'retry', delayMs: 100, receiverSet: false });
    expect(outcomeOf(answer(302), round(1), schedule, now)).toEqual({ kind: 'retry', delayMs: 200, receiverSet: false });
    expect(outcomeOf(answer(null), round(2), schedule, now)).toEqual({ kind: 'retry', delayMs: 300, receiverSet: false });
    expect(outcomeOf(answer(404), round(3), schedule, now)).toEqual({ kind: 'failed' });
    expect(outcomeOf(answer(500), round(0), [], now)).toEqual({ kind: 'failed' });
  });

  it("waits what a 429 or 503 asks for with Retry-After instead of the schedule's next delay, even once the schedule is used up", () => {
    expect(outcomeOf(answer(429, '2'), round(0), schedule, now)).toEqual({ kind: 'retry', delayMs: 2000, receiverSet: true });
    expect(outcomeOf(answer(503, 'Sun, 22 Nov 2026 03:20:48 GMT'), round(1), schedule, now)).toEqual({ kind: 'retry', delayMs: 10 * MINUTE, receiverSet: true });
    expect(outcomeOf(answer(429, '7200'), round(3), schedule, now)).toEqual({ kind: 'retry', delayMs: HOUR, receiverSet: true });
  });

  it('takes the schedule for a missing or malformed Retry-After, and for Retry-After on other statuses', () => {
    expect(outcomeOf(answer(429), round(0), schedule, now)).toEqual({ kind: 'retry', delayMs: 100, receiverSet: false });
    expect(outcomeOf(answer(503, 'later'), round(1), schedule, now)).toEqual({ kind: 'retry', delayMs: 200, receiverSet: false });
    expect(outcomeOf(answer(500, '2'), round(0), schedule, now)).toEqual({ kind: 'retry', delayMs: 100, receiverSet: false });
    expect(outcomeOf(answer(429), round(3), schedule, now)).toEqual({ kind: 'failed' });
  });

  it('honours Retry-After a limited number of times in a round, then counts such answers as failures on the schedule', () => {
    expect(outcomeOf(answer(429, '1'), round(0, MAX_RETRY_AFTER_ATTEMPTS - 1), schedule, now)).toEqual({ kind: 'retry', delayMs: 1000, receiverSet: true });
    expect(outcomeOf(answer(429, '1'), round(0, MAX_RETRY_AFTER_ATTEMPTS), schedule, now)).toEqual({ kind: 'retry', delayMs: 100, receiverSet: false });
    expect(outcomeOf(answer(503, '1'), round(3, MAX_RETRY_AFTER_ATTEMPTS), schedule, now)).toEqual({ kind: 'failed' });
  });
});
