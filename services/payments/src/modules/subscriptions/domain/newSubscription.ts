import { errors, isUuid, type FieldViolation } from '@platform/kit';
import { isCurrencyCode } from '../../charges/domain/newCharge';
import { nonEmpty } from '../../charges/domain/values';
import { INTERVALS, isInterval, type Interval } from './calendar';
import type { SubscriptionItem } from './subscription';

/** What a valid create request for a subscription is. */

export const SUBSCRIPTION_LIMITS = {
  nameMaxLength: 200,
  maxItems: 100,
  itemNameMaxLength: 200,
  itemAmountMax: 1_000_000_000_000,
  itemQuantityMax: 10_000,
  /** What one cycle bills, in minor units. */
  amountMin: 1,
  amountMax: 1_000_000_000_000,
  cyclesMax: 10_000,
  maxInstallments: 12,
  /** How far in the past a start may be: the clocks of the client and ours differ a little. */
  startAtToleranceMs: 5 * 60_000,
} as const;

/** A create request as the transport hands it over: text not given is empty or absent, nothing is checked yet. */
export interface NewSubscriptionInput {
  merchantId: string;
  customerId: string;
  name: string;
  items: Array<{ name: string; amount: number; quantity: number }>;
  interval: string;
  cycles?: number;
  startAt?: Date;
  trialEndAt?: Date;
  paymentType: string;
  cardId: string;
  installments?: number;
  currency?: string;
}

export interface NewSubscription {
  merchantId: string;
  customerId: string;
  name: string;
  items: SubscriptionItem[];
  /** The items' total: what each cycle bills. */
  amount: number;
  currency: string;
  interval: Interval;
  /** How many cycles are billed; null: no end. */
  cycles: number | null;
  /** Cycle n is due at anchor + (n − 1) intervals: the trial's end when there is one, else the start. */
  anchor: Date;
  /** The start the client asked for, else now. */
  startAt: Date;
  trialEndAt: Date | null;
  cardId: string;
  installments: number;
}

/** Characters as a person counts them (and PostgreSQL does), not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

/**
 * Checks a list of items and sums it; the fields are named `<field>`, `<field>.N.name`, `<field>.N.amount` and
 * `<field>.N.quantity`. Broken fields go to `problems` when it is given (to be reported with the rest of a
 * request); without it they are thrown as one validation error.
 */
export function parseItems(
  items: ReadonlyArray<{ name: string; amount: number; quantity: number }> | undefined,
  field = 'items',
  problems?: FieldViolation[],
): { items: SubscriptionItem[]; amount: number } {
  const found: FieldViolation[] = [];
  const list = Array.isArray(items) ? items : [];
  const parsed: SubscriptionItem[] = [];
  const { maxItems, itemNameMaxLength, itemAmountMax, itemQuantityMax, amountMin, amountMax } = SUBSCRIPTION_LIMITS;
  if (list.length < 1 || list.length > maxItems) found.push({ field, message: `must have from 1 to ${maxItems} items` });
  let amount = 0;
  let summable = true;
  list.slice(0, maxItems).forEach((item, i) => {
    const name = (typeof item?.name === 'string' ? item.name : '').trim();
    if (length(name) < 1 || length(name) > itemNameMaxLength) {
      found.push({ field: `${field}.${i}.name`, message: `must have from 1 to ${itemNameMaxLength} characters` });
    }
    const unitAmount = item?.amount;
    if (!Number.isSafeInteger(unitAmount) || unitAmount < 0 || unitAmount > itemAmountMax) {
      found.push({ field: `${field}.${i}.amount`, message: `must be a whole number of minor units from 0 to ${itemAmountMax}` });
      summable = false;
    }
    const quantity = item?.quantity;
    if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > itemQuantityMax) {
      found.push({ field: `${field}.${i}.quantity`, message: `must be a whole number from 1 to ${itemQuantityMax}` });
      summable = false;
    }
    // Each product is at most 10^16 and there are at most 100: a total past the maximum is recognised even where a
    // double rounds it, and a total within it is exact.
    if (summable) amount += unitAmount * quantity;
    parsed.push({ name, amount: unitAmount, quantity });
  });
  if (summable && list.length >= 1 && list.length <= maxItems && (amount < amountMin || amount > amountMax)) {
    found.push({ field, message: `must total from ${amountMin} to ${amountMax} minor units per cycle` });
  }
  if (problems) problems.push(...found);
  else if (found.length > 0) throw errors.validation('Invalid subscription items', found);
  return { items: parsed, amount };
}

/** A time given by the client: absent, a valid Date, or invalid (reported). */
function optionalTime(value: Date | undefined | null, field: string, problems: FieldViolation[]): Date | null | 'invalid' {
  if (value === undefined || value === null) return null;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    problems.push({ field, message: 'must be a valid time' });
    return 'invalid';
  }
  return value;
}

/** Validates and normalises a create request; every broken field is named at once. */
export function parseNewSubscription(input: NewSubscriptionInput, now: Date): NewSubscription {
  const problems: FieldViolation[] = [];
  const { nameMaxLength, cyclesMax, maxInstallments, startAtToleranceMs } = SUBSCRIPTION_LIMITS;

  const merchantId = (nonEmpty(input.merchantId) ?? '').toLowerCase();
  if (!isUuid(merchantId)) problems.push({ field: 'merchantId', message: 'must be a UUID' });
  const customerId = (nonEmpty(input.customerId) ?? '').toLowerCase();
  if (!isUuid(customerId)) problems.push({ field: 'customerId', message: 'must be a UUID' });
  const name = nonEmpty(input.name) ?? '';
  if (length(name) < 1 || length(name) > nameMaxLength) problems.push({ field: 'name', message: `must have from 1 to ${nameMaxLength} characters` });

  const { items, amount } = parseItems(input.items, 'items', problems);

  const rawInterval = (nonEmpty(input.interval) ?? '').toLowerCase();
  let interval: Interval = 'monthly';
  if (isInterval(rawInterval)) interval = rawInterval;
  else problems.push({ field: 'recurrence.interval', message: `must be one of ${INTERVALS.join(', ')}` });

  // proto3 `optional`: absent is no end; a given 0 is a broken value, not "absent".
  const cycles = input.cycles ?? null;
  if (cycles !== null && (!Number.isSafeInteger(cycles) || cycles < 1 || cycles > cyclesMax)) {
    problems.push({ field: 'recurrence.cycles', message: `must be a whole number from 1 to ${cyclesMax}` });
  }

  const startAt = optionalTime(input.startAt, 'recurrence.startAt', problems);
  if (startAt instanceof Date && startAt.getTime() < now.getTime() - startAtToleranceMs) {
    problems.push({ field: 'recurrence.startAt', message: 'must not be in the past' });
  }
  const trialEndAt = optionalTime(input.trialEndAt, 'trial.endAt', problems);
  if (trialEndAt instanceof Date && trialEndAt.getTime() <= now.getTime()) {
    problems.push({ field: 'trial.endAt', message: 'must be in the future' });
  }

  const paymentType = (nonEmpty(input.paymentType) ?? '').toLowerCase();
  if (paymentType !== 'credit') problems.push({ field: 'paymentMethod.type', message: 'must be credit' });
  const cardId = (nonEmpty(input.cardId) ?? '').toLowerCase();
  if (!isUuid(cardId)) problems.push({ field: 'paymentMethod.card.cardId', message: 'must be a UUID' });
  // proto3 sends 0 for "not given".
  const installments = input.installments || 1;
  if (!Number.isSafeInteger(installments) || installments < 1 || installments > maxInstallments) {
    problems.push({ field: 'paymentMethod.installments', message: `must be from 1 to ${maxInstallments}` });
  }
  const currency = (nonEmpty(input.currency) ?? 'BRL').toUpperCase();
  if (!isCurrencyCode(currency)) problems.push({ field: 'currency', message: 'must be an ISO 4217 currency code (3 letters)' });

  if (problems.length > 0) throw errors.validation('Invalid subscription', problems);

  const start = startAt instanceof Date ? new Date(startAt.getTime()) : new Date(now.getTime());
  const trialEnd = trialEndAt instanceof Date ? new Date(trialEndAt.getTime()) : null;
  return {
    merchantId,
    customerId,
    name,
    items,
    amount,
    currency,
    interval,
    cycles,
    anchor: new Date((trialEnd ?? start).getTime()),
    startAt: start,
    trialEndAt: trialEnd,
    cardId,
    installments,
  };
}
