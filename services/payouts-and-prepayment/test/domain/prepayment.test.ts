import fc from 'fast-check';
import { addDays, brasiliaInstant, BusinessCalendar, daysBetween } from '../../src/domain/calendar';
import {
  CUTOFF,
  expiresAtFor,
  FEE_CONVENTION,
  paymentDateFor,
  prepaymentFee,
  SIMULATION_TTL_MS,
  simulatePrepayment,
  type EligibleReceivable,
} from '../../src/domain/prepayment';
import { appErrorOf, fieldsOf } from './support';

const calendar = new BusinessCalendar();
const at = (date: string, hour: number, minute: number): Date => brasiliaInstant(date, hour, minute);

describe('prepayment constants', () => {
  it('cuts off at 15:00 Brasília, lets a simulation live 30 minutes, charges simple interest', () => {
    expect(CUTOFF).toEqual({ hour: 15, minute: 0 });
    expect(SIMULATION_TTL_MS).toBe(1_800_000);
    expect(FEE_CONVENTION).toBe('simple: amount × monthlyRate × days / 30, rounded down per receivable');
  });
});

describe('payment date and the 15:00 cutoff', () => {
  it.each([
    ['Friday before the cutoff', '2026-11-27', 14, 59, '2026-11-30'],
    ['Friday at the cutoff', '2026-11-27', 15, 0, '2026-12-01'],
    ['the day before a national holiday, before the cutoff', '2026-11-19', 14, 0, '2026-11-23'],
    ['the day before a national holiday, after the cutoff', '2026-11-19', 16, 0, '2026-11-24'],
    ['a Monday morning', '2026-11-23', 9, 0, '2026-11-24'],
    ['a Monday evening', '2026-11-23', 23, 59, '2026-11-25'],
    ['the Friday before Carnival', '2026-02-13', 11, 0, '2026-02-18'],
  ])('%s (%s %d:%d) is paid on %s', (_label, date, hour, minute, expected) => {
    expect(paymentDateFor(at(date, hour, minute), calendar)).toBe(expected);
  });

  it('reads the day and the hour in Brasília, not in UTC', () => {
    // 2026-11-27 14:59 in Brasília is 17:59 UTC; 2026-11-28 01:00 UTC is still Friday 22:00 in Brasília.
    expect(paymentDateFor(new Date('2026-11-27T17:59:00Z'), calendar)).toBe('2026-11-30');
    expect(paymentDateFor(new Date('2026-11-28T01:00:00Z'), calendar)).toBe('2026-12-01');
  });
});

describe('expiry of a simulation', () => {
  it.each([
    ['14:50 → the cutoff at 15:00', '2026-11-27', 14, 50, '2026-11-27T18:00:00.000Z'],
    ['10:00 → 30 minutes later', '2026-11-27', 10, 0, '2026-11-27T13:30:00.000Z'],
    ['14:30 → both at 15:00', '2026-11-27', 14, 30, '2026-11-27T18:00:00.000Z'],
    ['15:00 → 30 minutes later', '2026-11-27', 15, 0, '2026-11-27T18:30:00.000Z'],
    ['23:50 → 00:20 the next day', '2026-11-27', 23, 50, '2026-11-28T03:20:00.000Z'],
  ])('%s', (_label, date, hour, minute, expected) => {
    expect(expiresAtFor(at(date, hour, minute)).toISOString()).toBe(expected);
  });
});

describe('the prepayment fee', () => {
  it('is amount × monthlyRate × days / 30 in basis points, rounded down', () => {
    expect(prepaymentFee(100000, 199, 30)).toBe(1990);
    expect(prepaymentFee(100000, 200, 90)).toBe(6000); // 2 % a month over 90 days: 6.00 %
    expect(prepaymentFee(1000, 199, 1)).toBe(0); // 0.663
    expect(prepaymentFee(10000, 199, 17)).toBe(112); // 112.76
    expect(prepaymentFee(1000, 10000, 60)).toBe(1000); // never more than the amount
    expect(prepaymentFee(Number.MAX_SAFE_INTEGER, 199, 365)).toBe(Number((BigInt(Number.MAX_SAFE_INTEGER) * 199n * 365n) / 300000n));
  });
});

describe('simulating a prepayment', () => {
  // Friday 2026-11-27 at 10:00 in Brasília: paid on Monday 2026-11-30.
  const now = at('2026-11-27', 10, 0);
  const receivables: EligibleReceivable[] = [
    { id: 'r4', settlementDate: '2027-03-01', amount: 70000, paymentArrangement: 'VCC' },
    { id: 'r3', settlementDate: '2027-01-29', amount: 50000, paymentArrangement: 'MCC' },
    { id: 'r2b', settlementDate: '2026-12-30', amount: 333, paymentArrangement: 'MCC' },
    { id: 'r2', settlementDate: '2026-12-30', amount: 100000, paymentArrangement: 'VCC' },
    { id: 'r1', settlementDate: '2026-11-30', amount: 90000, paymentArrangement: 'VCC' },
  ];

  it('prepays every receivable settling after the payment date up to endDate', () => {
    const s = simulatePrepayment({ now, calendar, monthlyRate: 199, receivables, endDate: '2027-01-31' });
    expect(s.paymentDate).toBe('2026-11-30');
    expect(s.expiresAt.toISOString()).toBe('2026-11-27T13:30:00.000Z');
    // 30 days: 100000 × 199 × 30 / 300000 = 1990; 333 → 6.6 → 6; 60 days: 50000 × 199 × 60 / 300000 = 1990.
    expect(s.items).toEqual([
      { receivableId: 'r2', settlementDate: '2026-12-30', paymentArrangement: 'VCC', amount: 100000, days: 30, fee: 1990, net: 98010 },
      { receivableId: 'r2b', settlementDate: '2026-12-30', paymentArrangement: 'MCC', amount: 333, days: 30, fee: 6, net: 327 },
      { receivableId: 'r3', settlementDate: '2027-01-29', paymentArrangement: 'MCC', amount: 50000, days: 60, fee: 1990, net: 48010 },
    ]);
    expect([s.grossAmount, s.feeAmount, s.netAmount]).toEqual([150333, 3986, 146347]);
  });

  it('prepays only the receivables settling on the dates asked', () => {
    const s = simulatePrepayment({ now, calendar, monthlyRate: 199, receivables, dates: ['2027-01-29', '2027-03-01', '2026-11-30'] });
    expect(s.items.map((i) => [i.receivableId, i.days, i.fee])).toEqual([
      ['r3', 60, 1990],
      ['r4', 91, 4225], // 70000 × 199 × 91 / 300000 = 4225.43
    ]);
  });

  it('moves the payment date after the cutoff, so fewer days are charged', () => {
    const s = simulatePrepayment({ now: at('2026-11-27', 15, 30), calendar, monthlyRate: 199, receivables, dates: ['2027-01-29'] });
    expect(s.paymentDate).toBe('2026-12-01');
    expect(s.items[0]).toMatchObject({ days: 59, fee: 1956 }); // 1956.83
    expect(s.expiresAt.toISOString()).toBe('2026-11-27T19:00:00.000Z');
  });

  it('wants exactly one of endDate and dates, each a real date', () => {
    expect(fieldsOf(() => simulatePrepayment({ now, calendar, monthlyRate: 199, receivables }))).toEqual(['endDate']);
    expect(fieldsOf(() => simulatePrepayment({ now, calendar, monthlyRate: 199, receivables, endDate: '2027-01-31', dates: ['2027-01-29'] }))).toEqual(['endDate']);
    expect(fieldsOf(() => simulatePrepayment({ now, calendar, monthlyRate: 199, receivables, endDate: '31/01/2027' }))).toEqual(['endDate']);
    expect(fieldsOf(() => simulatePrepayment({ now, calendar, monthlyRate: 199, receivables, dates: ['2027-01-29', '2027-02-30', 'x'] }))).toEqual(['dates.1', 'dates.2']);
    expect(fieldsOf(() => simulatePrepayment({ now, calendar, monthlyRate: 199, receivables, dates: [] }))).toEqual(['dates']);
    expect(fieldsOf(() => simulatePrepayment({ now, calendar, monthlyRate: 10001, receivables, endDate: '2027-01-31' }))).toEqual(['monthlyRate']);
  });

  it('refuses a simulation with nothing to prepay', () => {
    const error = appErrorOf(() => simulatePrepayment({ now, calendar, monthlyRate: 199, receivables, endDate: '2026-11-30' }));
    expect(error.kind).toBe('business_rule');
    expect(error.businessCode).toBe('no_receivables_to_prepay');
    expect(appErrorOf(() => simulatePrepayment({ now, calendar, monthlyRate: 199, receivables: [], dates: ['2027-01-29'] })).businessCode).toBe('no_receivables_to_prepay');
  });

  it('keeps its items after the payment date, its fees within the amounts and its totals exact (property)', () => {
    const receivable = fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      offset: fc.integer({ min: -10, max: 400 }),
      amount: fc.integer({ min: 1, max: 1_000_000_000 }),
      paymentArrangement: fc.constantFrom('VCC', 'MCC', 'ECC', 'VCD'),
    });
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2028-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 10000 }),
        fc.array(receivable, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 400 }),
        (now, monthlyRate, raw, endOffset) => {
          const paymentDate = paymentDateFor(now, calendar);
          const list = raw.map((r) => ({ id: r.id, settlementDate: addDays(paymentDate, r.offset), amount: r.amount, paymentArrangement: r.paymentArrangement }));
          const endDate = addDays(paymentDate, endOffset);
          const expected = list.filter((r) => r.settlementDate > paymentDate && r.settlementDate <= endDate);
          if (expected.length === 0) {
            expect(appErrorOf(() => simulatePrepayment({ now, calendar, monthlyRate, receivables: list, endDate })).businessCode).toBe('no_receivables_to_prepay');
            return;
          }
          const s = simulatePrepayment({ now, calendar, monthlyRate, receivables: list, endDate });
          expect(s.paymentDate).toBe(paymentDate);
          expect(calendar.isBusinessDay(s.paymentDate)).toBe(true);
          expect(s.expiresAt.getTime()).toBeGreaterThan(now.getTime());
          expect(s.expiresAt.getTime()).toBeLessThanOrEqual(now.getTime() + SIMULATION_TTL_MS);
          expect(s.items).toHaveLength(expected.length);
          for (const item of s.items) {
            expect(item.days).toBe(daysBetween(paymentDate, item.settlementDate));
            expect(item.days).toBeGreaterThan(0);
            expect(item.fee).toBe(Math.min(item.amount, Number((BigInt(item.amount) * BigInt(monthlyRate) * BigInt(item.days)) / 300000n)));
            expect(item.net).toBe(item.amount - item.fee);
            expect(item.net).toBeGreaterThanOrEqual(0);
          }
          expect(s.grossAmount).toBe(expected.reduce((a, r) => a + r.amount, 0));
          expect(s.netAmount).toBe(s.grossAmount - s.feeAmount);
          expect(s.feeAmount).toBe(s.items.reduce((a, i) => a + i.fee, 0));
        },
      ),
      { numRuns: 300, seed: 20260505 },
    );
  });
});
