import fc from 'fast-check';
import { addDays, brasiliaDate, brasiliaInstant, BusinessCalendar, CALENDAR_NAME, daysBetween, isIsoDate, weekday } from '../../src/domain/calendar';

const calendar = new BusinessCalendar();

describe('business days in Brazil', () => {
  it('names its source', () => {
    expect(CALENDAR_NAME).toBe('BR: national and bank holidays (date-holidays)');
  });

  it.each([
    ['2026-02-16', 'Carnival Monday (bank holiday)'],
    ['2026-02-17', 'Carnival Tuesday (bank holiday)'],
    ['2026-06-04', 'Corpus Christi (bank holiday)'],
    ['2026-11-20', 'Black Consciousness Day (national)'],
    ['2026-01-01', "New Year's Day"],
    ['2026-04-03', 'Good Friday'],
    ['2026-04-21', 'Tiradentes'],
    ['2026-05-01', 'Labour Day'],
    ['2026-09-07', 'Independence Day'],
    ['2026-10-12', 'Our Lady of Aparecida'],
    ['2026-11-02', "All Souls' Day"],
    ['2026-12-25', 'Christmas'],
    ['2027-02-08', 'Carnival Monday 2027'],
    ['2027-02-09', 'Carnival Tuesday 2027'],
    ['2027-05-27', 'Corpus Christi 2027'],
    ['2026-11-21', 'a Saturday'],
    ['2026-11-22', 'a Sunday'],
    ['2026-05-09', 'a Saturday'],
  ])('%s is not a business day: %s', (date) => {
    expect(calendar.isBusinessDay(date)).toBe(false);
  });

  it.each(['2026-02-13', '2026-02-18', '2026-06-05', '2026-11-19', '2026-11-23', '2026-11-27', '2026-12-24', '2026-12-31'])('%s is a business day', (date) => {
    expect(calendar.isBusinessDay(date)).toBe(true);
  });

  it('finds the next business day strictly after a date', () => {
    expect(calendar.nextAfter('2026-11-19')).toBe('2026-11-23');
    expect(calendar.nextAfter('2026-11-27')).toBe('2026-11-30');
    expect(calendar.nextAfter('2026-11-30')).toBe('2026-12-01');
    expect(calendar.nextAfter('2026-02-13')).toBe('2026-02-18');
    expect(calendar.nextAfter('2026-12-31')).toBe('2027-01-04');
  });

  it('keeps a business day and moves any other day forward', () => {
    expect(calendar.onOrAfter('2026-11-19')).toBe('2026-11-19');
    expect(calendar.onOrAfter('2026-11-20')).toBe('2026-11-23');
    expect(calendar.onOrAfter('2026-06-04')).toBe('2026-06-05');
    expect(calendar.onOrAfter('2026-02-14')).toBe('2026-02-18');
  });

  it('computes the holidays of a year once', () => {
    const c = new BusinessCalendar();
    expect(c.holidaysOf(2026)).toBe(c.holidaysOf(2026));
    expect(c.holidaysOf(2026).has('2026-11-20')).toBe(true);
  });

  it('refuses what is not a calendar date', () => {
    expect(() => calendar.isBusinessDay('2026-02-30')).toThrow(Error);
    expect(() => calendar.isBusinessDay('20261120')).toThrow(Error);
  });

  it('onOrAfter gives the first business day on or after any date of 2025–2028 (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 * 366 }), (offset) => {
        const date = addDays('2025-01-01', offset);
        const found = calendar.onOrAfter(date);
        expect(found >= date).toBe(true);
        expect(calendar.isBusinessDay(found)).toBe(true);
        expect([0, 6]).not.toContain(weekday(found));
        for (let d = date; d < found; d = addDays(d, 1)) expect(calendar.isBusinessDay(d)).toBe(false);
        expect(calendar.nextAfter(date) > date).toBe(true);
        expect(calendar.nextAfter(date)).toBe(calendar.onOrAfter(addDays(date, 1)));
      }),
      { numRuns: 300, seed: 20260503 },
    );
  });
});

describe('calendar dates', () => {
  it('adds calendar days across months, leap days and years', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-05-05', 90)).toBe('2026-08-03');
    expect(addDays('2026-05-05', 0)).toBe('2026-05-05');
  });

  it('counts days between dates (to − from)', () => {
    expect(daysBetween('2026-01-30', '2026-03-01')).toBe(30);
    expect(daysBetween('2026-03-01', '2026-01-30')).toBe(-30);
    expect(daysBetween('2028-01-01', '2029-01-01')).toBe(366);
  });

  it('tells real dates', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
    expect(isIsoDate(20260101)).toBe(false);
  });

  it('gives the calendar date in Brasília', () => {
    expect(brasiliaDate(new Date('2026-05-06T02:59:59.999Z'))).toBe('2026-05-05');
    expect(brasiliaDate(new Date('2026-05-06T03:00:00.000Z'))).toBe('2026-05-06');
    expect(brasiliaDate(new Date('2026-01-01T01:00:00.000Z'))).toBe('2025-12-31');
  });

  it('gives the instant of a Brasília wall-clock time, from the time-zone database', () => {
    expect(brasiliaInstant('2026-11-27', 15, 0).toISOString()).toBe('2026-11-27T18:00:00.000Z');
    expect(brasiliaInstant('2026-11-19', 0, 0).toISOString()).toBe('2026-11-19T03:00:00.000Z');
    expect(brasiliaInstant('2026-11-19', 23, 59).toISOString()).toBe('2026-11-20T02:59:00.000Z');
    // Brazil kept summer time (UTC−2) until 2019: January 2018 was two hours behind UTC.
    expect(brasiliaInstant('2018-01-15', 15, 0).toISOString()).toBe('2018-01-15T17:00:00.000Z');
    expect(() => brasiliaInstant('2026-11-19', 24, 0)).toThrow(Error);
  });

  it('brasiliaInstant and brasiliaDate agree (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 * 366 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (offset, hour, minute) => {
        const date = addDays('2025-01-01', offset);
        const instant = brasiliaInstant(date, hour, minute);
        expect(brasiliaDate(instant)).toBe(date);
        expect(instant.getTime() - Date.parse(`${date}T00:00:00Z`)).toBe(((hour + 3) * 60 + minute) * 60_000);
      }),
      { numRuns: 300, seed: 20260504 },
    );
  });
});
