import { DEFAULT_RETRY_SCHEDULE, outcomeOf, parseRetrySchedule } from '../../src/domain/retrySchedule';

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

describe('outcomeOf', () => {
  const schedule = [100, 200, 300];

  it('takes any 2xx as delivered', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(outcomeOf(status, 0, schedule)).toEqual({ kind: 'succeeded' });
  });

  it('stops on 410 Gone', () => {
    expect(outcomeOf(410, 0, schedule)).toEqual({ kind: 'gone' });
  });

  it('retries any other answer, or none, on the schedule, then fails', () => {
    expect(outcomeOf(500, 0, schedule)).toEqual({ kind: 'retry', delayMs: 100 });
    expect(outcomeOf(302, 1, schedule)).toEqual({ kind: 'retry', delayMs: 200 });
    expect(outcomeOf(null, 2, schedule)).toEqual({ kind: 'retry', delayMs: 300 });
    expect(outcomeOf(404, 3, schedule)).toEqual({ kind: 'failed' });
    expect(outcomeOf(500, 0, [])).toEqual({ kind: 'failed' });
  });
});
