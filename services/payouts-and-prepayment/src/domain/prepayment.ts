import { errors, type FieldViolation } from '@platform/kit';
import { addDays, brasiliaDate, brasiliaInstant, daysBetween, isIsoDate, type BusinessCalendar } from './calendar';
import { parseMonthlyRate } from './plan';

/** Prepayments asked before 15:00 Brasília are paid on the next business day; later ones a business day after. */
export const CUTOFF = { hour: 15, minute: 0 } as const;

/** A simulation can be committed for 30 minutes at most (and never after the cutoff of its day). */
export const SIMULATION_TTL_MS = 30 * 60_000;

export const FEE_CONVENTION = 'simple: amount × monthlyRate × days / 30, rounded down per receivable';

/** A future, unsettled, not yet prepaid receivable of the own provider, as offered for prepayment. */
export interface EligibleReceivable {
  id: string;
  settlementDate: string;
  amount: number;
  paymentArrangement: string;
}

export interface PrepaymentItem {
  receivableId: string;
  settlementDate: string;
  paymentArrangement: string;
  amount: number;
  days: number;
  fee: number;
  net: number;
}

/** A simulation kept for its client to commit (`pending`), committed, or expired. */
export interface Prepayment {
  id: string;
  clientId: string;
  receiver: string | null;
  status: 'pending' | 'committed' | 'expired';
  grossAmount: number;
  feeAmount: number;
  netAmount: number;
  monthlyRate: number;
  paymentDate: string;
  expiresAt: Date;
  items: PrepaymentItem[];
  createdAt: Date;
  committedAt: Date | null;
}

export interface PrepaymentSimulation {
  paymentDate: string;
  expiresAt: Date;
  items: PrepaymentItem[];
  grossAmount: number;
  feeAmount: number;
  netAmount: number;
}

function cutoffOf(date: string): Date {
  return brasiliaInstant(date, CUTOFF.hour, CUTOFF.minute);
}

/** Whether `now` is before the 15:00 Brasília cutoff of its own Brasília day. */
export function isBeforeCutoff(now: Date): boolean {
  return now.getTime() < cutoffOf(brasiliaDate(now)).getTime();
}

/**
 * The day a prepayment made at `now` is paid: before 15:00 Brasília, the first business day after today (in
 * Brasília); at or after 15:00, the business day after that one.
 */
export function paymentDateFor(now: Date, calendar: BusinessCalendar): string {
  const next = calendar.nextAfter(brasiliaDate(now));
  return isBeforeCutoff(now) ? next : calendar.nextAfter(next);
}

/**
 * Until when a simulation made at `now` can be committed: the next 15:00 Brasília cutoff (today's if it is still
 * ahead, else tomorrow's) or 30 minutes after the simulation, whichever comes first.
 */
export function expiresAtFor(now: Date): Date {
  const today = brasiliaDate(now);
  const cutoff = isBeforeCutoff(now) ? cutoffOf(today) : cutoffOf(addDays(today, 1));
  return new Date(Math.min(cutoff.getTime(), now.getTime() + SIMULATION_TTL_MS));
}

/**
 * The fee of prepaying `amount` by `days` days at `monthlyRate` basis points a month, simple pro rata:
 * floor(amount × monthlyRate × days / 300000), and never more than the amount itself.
 *
 * prepaymentFee(100000, 199, 30) = 1990; prepaymentFee(100000, 200, 90) = 6000 (6.00 %)
 */
export function prepaymentFee(amount: number, monthlyRate: number, days: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`amount must be a non-negative integer, got ${amount}`);
  if (!Number.isSafeInteger(days) || days < 0) throw new Error(`days must be a non-negative integer, got ${days}`);
  const fee = Number((BigInt(amount) * BigInt(monthlyRate) * BigInt(days)) / 300_000n);
  return Math.min(fee, amount);
}

/**
 * A prepayment simulation made at `now`.
 * - Exactly one of `endDate` (every receivable settling up to that date) or `dates` (the receivables settling on
 *   those dates); dates are 'YYYY-MM-DD'.
 * - The payment date is `paymentDateFor(now)`; only receivables settling AFTER it are prepaid (the others are paid
 *   by then anyway). Items are ordered by settlement date, then id.
 * - Per item: days = settlement date − payment date; fee = `prepaymentFee` (rounded down per receivable);
 *   net = amount − fee. Receivables with nothing left (amount 0) are not offered.
 * No item at all: business rule `no_receivables_to_prepay`.
 */
export function simulatePrepayment(input: {
  now: Date;
  calendar: BusinessCalendar;
  monthlyRate: number;
  receivables: EligibleReceivable[];
  endDate?: string;
  dates?: string[];
}): PrepaymentSimulation {
  const { now, calendar, receivables, endDate, dates } = input;
  const hasEnd = endDate !== undefined && endDate !== null;
  const hasDates = dates !== undefined && dates !== null;
  if (hasEnd === hasDates) {
    throw errors.validation('Give exactly one of endDate or dates', [{ field: 'endDate', message: 'give exactly one of endDate or dates' }]);
  }
  const details: FieldViolation[] = [];
  if (hasEnd && !isIsoDate(endDate)) details.push({ field: 'endDate', message: "must be a date 'YYYY-MM-DD'" });
  if (hasDates) {
    if (dates.length === 0) details.push({ field: 'dates', message: 'must not be empty' });
    dates.forEach((d, i) => {
      if (!isIsoDate(d)) details.push({ field: `dates.${i}`, message: "must be a date 'YYYY-MM-DD'" });
    });
  }
  if (details.length > 0) throw errors.validation('Invalid prepayment dates', details);
  const monthlyRate = parseMonthlyRate(input.monthlyRate, 'monthlyRate');

  const paymentDate = paymentDateFor(now, calendar);
  const wanted = hasDates ? new Set(dates) : null;
  const items: PrepaymentItem[] = receivables
    .filter((r) => r.amount > 0 && r.settlementDate > paymentDate && (wanted ? wanted.has(r.settlementDate) : r.settlementDate <= endDate!))
    .sort((a, b) => (a.settlementDate !== b.settlementDate ? (a.settlementDate < b.settlementDate ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => {
      const days = daysBetween(paymentDate, r.settlementDate);
      const fee = prepaymentFee(r.amount, monthlyRate, days);
      return { receivableId: r.id, settlementDate: r.settlementDate, paymentArrangement: r.paymentArrangement, amount: r.amount, days, fee, net: r.amount - fee };
    });
  if (items.length === 0) throw errors.businessRule('no_receivables_to_prepay', 'No receivable settles after the payment date within the dates asked');
  const grossAmount = items.reduce((a, i) => a + i.amount, 0);
  const feeAmount = items.reduce((a, i) => a + i.fee, 0);
  return { paymentDate, expiresAt: expiresAtFor(now), items, grossAmount, feeAmount, netAmount: grossAmount - feeAmount };
}
