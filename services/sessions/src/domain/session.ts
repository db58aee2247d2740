import {
  brazilDate,
  CURRENCY_MESSAGE,
  DATE_MESSAGE,
  DATE_RANGE,
  DATE_TIME_RANGE_MESSAGE,
  isCalendarDate,
  isCurrencyCode,
  isInstantInRange,
  PAYMENT_TYPES,
  parseSplitRules,
  SESSION_STATUSES,
  type ParsedSplitRule,
  type PaymentType,
  type SessionStatus,
} from '@platform/api-model';
import { errors, isUuid, type FieldViolation } from '@platform/kit';

/** Persisted statuses. `disabled` exists only in history (expiry by due date or by the payment limit). */
export { SESSION_STATUSES, type SessionStatus };
export type HistoryStatus = SessionStatus | 'disabled';

export { PAYMENT_TYPES, type PaymentType };

export const MAX_PAYMENTS_LIMIT = 99_999;
export const UNLIMITED = -1;

/** What may happen to a session; the status table says from which status each is allowed and where it leads. */
export type SessionTransition = 'pay' | 'cancel' | 'void';

/**
 * The status table. A status absent from a row refuses that transition. 1:N sessions stay `created` while they
 * take payments (the counters and `isActive` tell the rest); only a 1:1 session becomes `paid`.
 */
export const STATUS_TABLE: Record<SessionStatus, Partial<Record<SessionTransition, SessionStatus>>> = {
  created: { pay: 'paid', cancel: 'canceled', void: 'voided' },
  paid: { void: 'voided' },
  canceled: {},
  voided: {},
};

export function nextStatus(from: SessionStatus, transition: SessionTransition): SessionStatus | null {
  return STATUS_TABLE[from][transition] ?? null;
}

export interface SessionItem {
  name: string;
  unitPrice: number;
  quantity: number;
  description: string;
}

/** A payment method the session accepts, with its settings (Pix expiry, boleto due date...). */
export interface SessionPaymentMethod {
  paymentType: PaymentType;
  installments?: number;
  expiresIn?: number;
  expiresDate?: string;
  instructions?: string;
}

export type SessionSplitRule = ParsedSplitRule;

export interface Session {
  id: string;
  clientId: string;
  merchantId: string;
  name: string;
  orderId: string;
  amount: number;
  currency: string;
  capture: boolean | null;
  dueDate: Date | null;
  isActive: boolean;
  status: SessionStatus;
  paymentMethods: SessionPaymentMethod[];
  items: SessionItem[];
  splitRules: SessionSplitRule[];
  statementDescriptor: string;
  /** null: 1:1; -1: unlimited; else the maximum (1:N). */
  maxPayments: number | null;
  paymentCount: number;
  pendingCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface MultiplePaymentsState {
  allow: boolean;
  maxPayments: number;
  paymentCount: number;
  pendingCount: number;
  status: 'enabled' | 'disabled';
}

/** The aggregate state shown with the session. */
export function multiplePaymentsOf(session: Session): MultiplePaymentsState {
  return {
    allow: session.maxPayments !== null,
    maxPayments: session.maxPayments ?? 1,
    paymentCount: session.paymentCount,
    pendingCount: session.pendingCount,
    status: session.isActive && session.status === 'created' ? 'enabled' : 'disabled',
  };
}

function isOneTimeMethod(type: PaymentType): boolean {
  return type === 'pix' || type === 'boleto';
}

/** maxPayments as asked: absent = 1:1; -1 unlimited; 1..99999. */
export function parseMaxPayments(value: number | undefined, field = 'maxPayments'): number | null {
  if (value === undefined) return null;
  if (value === UNLIMITED || (Number.isInteger(value) && value >= 1 && value <= MAX_PAYMENTS_LIMIT)) return value;
  throw errors.validation(`${field} must be -1 or between 1 and ${MAX_PAYMENTS_LIMIT}`, [{ field, message: `must be -1 or between 1 and ${MAX_PAYMENTS_LIMIT}` }]);
}

/** Pix and boleto are paid once per code: a finite maximum above 1 is refused. */
export function checkMethodsAgainstMaxPayments(methods: SessionPaymentMethod[], maxPayments: number | null): void {
  if (maxPayments !== null && maxPayments > 1 && methods.some((m) => isOneTimeMethod(m.paymentType))) {
    throw errors.businessRule('pix_boleto_multiple_payments_not_allowed', 'Pix or boleto sessions cannot take a finite number of payments above 1');
  }
}

export interface NewSessionInput {
  id: string;
  clientId: string;
  merchantId: string;
  name: string;
  orderId: string;
  amount?: number;
  currency: string;
  capture?: boolean;
  dueDate?: Date;
  isActive?: boolean;
  maxPayments?: number;
  paymentMethods: SessionPaymentMethod[];
  items: SessionItem[];
  splitRules: SessionSplitRule[];
  statementDescriptor: string;
}

/** What is wrong with a boleto's due date (YYYY-MM-DD), as payments would refuse it for the charge: none when it is fine. */
function dueDateProblem(day: string, now: Date): string | undefined {
  if (!isCalendarDate(day)) return DATE_MESSAGE;
  if (day < brazilDate(now)) return 'must not be in the past';
  if (day > DATE_RANGE.latest) return `must be at most ${DATE_RANGE.latest}`;
  return undefined;
}

/** A new session from a create request: the rules of the description, checked before anything is stored. */
export function newSession(input: NewSessionInput, now: Date): Session {
  const violations: FieldViolation[] = [];
  if (!isUuid(input.merchantId)) violations.push({ field: 'merchantId', message: 'must be a UUID' });
  if (input.paymentMethods.length === 0) violations.push({ field: 'paymentMethods', message: 'must name at least one payment method' });
  input.paymentMethods.forEach((m, i) => {
    if (!(PAYMENT_TYPES as readonly string[]).includes(m.paymentType)) violations.push({ field: `paymentMethods[${i}].paymentType`, message: `must be one of ${PAYMENT_TYPES.join(', ')}` });
  });
  const types = input.paymentMethods.map((m) => m.paymentType);
  if (new Set(types).size !== types.length) violations.push({ field: 'paymentMethods', message: 'must not repeat a payment type' });
  if (input.items.length === 0) violations.push({ field: 'items', message: 'must have at least one item' });
  input.items.forEach((item, i) => {
    if (item.name.trim() === '') violations.push({ field: `items[${i}].name`, message: 'must not be empty' });
    if (!Number.isSafeInteger(item.unitPrice) || item.unitPrice < 0) violations.push({ field: `items[${i}].unitPrice`, message: 'must be a non-negative integer' });
    if (!Number.isInteger(item.quantity) || item.quantity < 1) violations.push({ field: `items[${i}].quantity`, message: 'must be a positive integer' });
  });
  if (input.dueDate && input.dueDate.getTime() <= now.getTime()) violations.push({ field: 'dueDate', message: 'must be in the future' });
  else if (input.dueDate && !isInstantInRange(input.dueDate)) violations.push({ field: 'dueDate', message: DATE_TIME_RANGE_MESSAGE });
  const currency = (input.currency || 'BRL').toUpperCase();
  if (!isCurrencyCode(currency)) violations.push({ field: 'currency', message: CURRENCY_MESSAGE });
  input.paymentMethods.forEach((m, i) => {
    const problem = m.expiresDate ? dueDateProblem(m.expiresDate, now) : undefined;
    if (problem) violations.push({ field: `paymentMethods[${i}].expiresDate`, message: problem });
  });
  if (violations.length > 0) throw errors.validation(`invalid session: ${violations[0]!.field} ${violations[0]!.message}`, violations);

  const itemsTotal = input.items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  const amount = input.amount ?? itemsTotal;
  if (!Number.isSafeInteger(amount) || amount <= 0) throw errors.validation('amount must be a positive integer', [{ field: 'amount', message: 'must be a positive integer' }]);
  if (input.amount !== undefined && input.amount !== itemsTotal) {
    throw errors.validation('amount must equal the total of the items', [{ field: 'amount', message: `must equal the items total ${itemsTotal}` }]);
  }
  // The split is checked as a charge's is (each seller once, the shares adding up to the amount): every payment of
  // the link makes a charge with it, so a split a charge would refuse is never stored.
  const splitProblems: FieldViolation[] = [];
  const splitRules = parseSplitRules(input.splitRules, amount, splitProblems);
  if (splitProblems.length > 0) throw errors.validation(`invalid session: ${splitProblems[0]!.field} ${splitProblems[0]!.message}`, splitProblems);
  const maxPayments = parseMaxPayments(input.maxPayments);
  checkMethodsAgainstMaxPayments(input.paymentMethods, maxPayments);
  return {
    id: input.id,
    clientId: input.clientId,
    merchantId: input.merchantId,
    name: input.name,
    orderId: input.orderId,
    amount,
    currency,
    capture: input.capture ?? null,
    dueDate: input.dueDate ?? null,
    isActive: input.isActive ?? true,
    status: 'created',
    paymentMethods: input.paymentMethods,
    items: input.items.map((item) => ({ ...item, name: item.name.trim() })),
    splitRules,
    statementDescriptor: input.statementDescriptor,
    maxPayments,
    paymentCount: 0,
    pendingCount: 0,
    createdAt: now,
    updatedAt: now,
  };
}

export interface FeeRule {
  percentage?: number;
  fixedAmount?: number;
  paymentMethod: string;
  installment?: number;
}

/**
 * The fee rule payments applies to a charge: the method's rule for that number of installments, else the method's
 * rule without installments, else the `default` rule likewise.
 */
function matchingFeeRule(rules: FeeRule[], paymentType: string, installments: number | undefined): FeeRule | undefined {
  for (const method of [paymentType, 'default']) {
    const forMethod = rules.filter((r) => r.paymentMethod === method);
    const exact = installments === undefined ? undefined : forMethod.find((r) => r.installment === installments);
    if (exact) return exact;
    const general = forMethod.find((r) => r.installment === undefined || r.installment === null);
    if (general) return general;
  }
  return undefined;
}

/** Every rule a payment by this method could be charged by, whatever number of installments the buyer picks. */
function reachableFeeRules(rules: FeeRule[], paymentType: string): FeeRule[] {
  const installments = new Set<number | undefined>([undefined, ...rules.map((r) => r.installment ?? undefined)]);
  const reached = new Set<FeeRule>();
  for (const n of installments) {
    const rule = matchingFeeRule(rules, paymentType, n);
    if (rule) reached.add(rule);
  }
  return [...reached];
}

/**
 * The largest platform fee the merchant's rules could take from one payment of this session (split sessions only,
 * fee enabled; only the rules payments would apply to the session's methods): above the link's amount it is
 * refused with `platform_fee_exceeds_link_amount`.
 */
export function checkPlatformFee(session: Pick<Session, 'amount' | 'paymentMethods' | 'splitRules'>, fee: { enabled: boolean; rules: FeeRule[] }): void {
  if (!fee.enabled || session.splitRules.length === 0) return;
  for (const method of session.paymentMethods) {
    for (const rule of reachableFeeRules(fee.rules, method.paymentType)) {
      const taken = Math.floor((session.amount * (rule.percentage ?? 0)) / 10_000) + (rule.fixedAmount ?? 0);
      if (taken > session.amount) {
        throw errors.businessRule('platform_fee_exceeds_link_amount', "The merchant's platform fee would be larger than the session amount");
      }
    }
  }
}

/** Whether the session's split is one a charge takes (always, for a session created since splits are checked). */
export function splitIsValid(session: Pick<Session, 'amount' | 'splitRules'>): boolean {
  if (session.splitRules.length === 0) return true;
  const problems: FieldViolation[] = [];
  parseSplitRules(session.splitRules, session.amount, problems);
  return problems.length === 0;
}

/** Why a session takes no payment now, as the business code the buyer gets (null: it can be paid). */
export function refusalOf(session: Session, now: Date): AppErrorLike | null {
  if (session.status !== 'created' || (session.dueDate !== null && session.dueDate.getTime() <= now.getTime())) {
    return { code: 'session_disabled', message: 'The session takes no more payments' };
  }
  if (!session.isActive) {
    if (session.maxPayments !== null && session.maxPayments !== UNLIMITED && session.paymentCount + session.pendingCount >= session.maxPayments) {
      return { code: 'multiple_payments_limit_reached', message: 'The session reached its maximum number of payments' };
    }
    return { code: 'session_disabled', message: 'The session takes no more payments' };
  }
  if (session.maxPayments === null ? session.paymentCount + session.pendingCount >= 1 : session.maxPayments !== UNLIMITED && session.paymentCount + session.pendingCount >= session.maxPayments) {
    return session.maxPayments === null
      ? { code: 'session_disabled', message: 'The session takes no more payments' }
      : { code: 'multiple_payments_limit_reached', message: 'The session reached its maximum number of payments' };
  }
  return null;
}

export interface AppErrorLike {
  code: 'session_disabled' | 'multiple_payments_limit_reached';
  message: string;
}

/** The buyer's method must be one the session accepts. */
export function allowedMethod(session: Session, paymentType: string): SessionPaymentMethod {
  const method = session.paymentMethods.find((m) => m.paymentType === paymentType);
  if (!method) {
    throw errors.businessRule('payment_method_not_allowed', `The session does not accept ${paymentType || 'that payment method'}`);
  }
  return method;
}

/**
 * The installments of a buyer's payment: the session's method offers up to its `installments` (one when it names
 * none), and the buyer picks within that offer (0, not given, is one).
 */
export function buyerInstallments(method: SessionPaymentMethod, requested: number): number {
  const offered = Math.max(1, method.installments ?? 1);
  const installments = requested === 0 ? 1 : requested;
  if (!Number.isInteger(installments) || installments < 1 || installments > offered) {
    const message = offered === 1 ? 'must be 1: the session offers no installments' : `must be from 1 to ${offered}: the session offers up to ${offered}`;
    throw errors.validation(`paymentMethod.installments ${message}`, [{ field: 'paymentMethod.installments', message }]);
  }
  return installments;
}

/** What a buyer pays a session with, as the payment source and customer of its request (empty strings: not given). */
export interface BuyerSource {
  customerId: string;
  sourceType: string;
  cardId: string;
  customerIdOfSource: string;
}

/**
 * A session is paid with what its buyer brings: a card typed in (`card` with `card`, or the `token` it was just
 * tokenized into), or the buyer's own data (`customer` with `customer`, for Pix or boleto). A session names no
 * customer, so nothing stored by its client may pay it: no saved card (`cardId`), no stored customer (`customerId`,
 * in the source or the request), no wallet. Whoever holds the session's public key (printed by the checkout page)
 * reaches only this.
 */
export function checkBuyerSource(source: BuyerSource): void {
  const violations: FieldViolation[] = [];
  const stored = 'must not be given: a session is paid with what its buyer brings, not with what its client stored';
  if (source.customerId.trim() !== '') violations.push({ field: 'customerId', message: stored });
  switch (source.sourceType.trim().toLowerCase()) {
    case 'card':
      if (source.cardId.trim() !== '') violations.push({ field: 'paymentSource.cardId', message: `${stored}; type the card` });
      break;
    case 'token':
      // A card the buyer just typed, tokenized with the session's public key (as the public Node SDK does when it is
      // given that key): the token must have been made for this session, which payments knows (chargeSession asks).
      break;
    case 'customer':
      if (source.customerIdOfSource.trim() !== '') violations.push({ field: 'paymentSource.customerId', message: `${stored}; send customer` });
      if (source.cardId.trim() !== '') violations.push({ field: 'paymentSource.cardId', message: `${stored}; type the card` });
      break;
    default:
      violations.push({ field: 'paymentSource.sourceType', message: 'must be card (a card typed in) or customer (the buyer, for Pix or boleto)' });
  }
  if (violations.length > 0) throw errors.validation(`invalid payment source: ${violations[0]!.field} ${violations[0]!.message}`, violations);
}

export interface SessionUpdate {
  isActive?: boolean;
  dueDate?: Date;
  maxPayments?: number;
}

/** What the rules of a PATCH need besides the session: whether it was ever disabled by its due date. */
export interface UpdateContext {
  expiredByDueDate?: boolean;
}

function limitReached(session: Pick<Session, 'maxPayments' | 'paymentCount'>): boolean {
  return session.maxPayments !== null && session.maxPayments !== UNLIMITED && session.paymentCount >= session.maxPayments;
}

/**
 * Applies a PATCH: the changed fields (a value equal to the current one is no change), or a refusal by the rules.
 * Asking `isActive: true` is a reactivation whatever the current flag: a paid or expired 1:1 Pix or boleto session
 * is refused with `pix_boleto_one_to_one_reactivation_blocked`, another paid 1:1 session with `session_disabled`.
 * A 1:N session left active with its payments at the maximum is refused with `multiple_payments_limit_reached`.
 */
export function applyUpdate(
  session: Session,
  update: SessionUpdate,
  now: Date,
  context: UpdateContext = {},
): { next: Session; changes: Record<string, { from: unknown; to: unknown }> } {
  if (session.status === 'canceled' || session.status === 'voided') {
    throw errors.businessRule('session_disabled', `A ${session.status} session cannot change`);
  }
  const next: Session = { ...session, updatedAt: now };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (update.maxPayments !== undefined) {
    const max = parseMaxPayments(update.maxPayments);
    if (session.maxPayments === null) throw errors.businessRule('session_one_to_one', 'maxPayments cannot be set on a 1:1 session');
    if (max !== null && max !== UNLIMITED && max < session.paymentCount + session.pendingCount) {
      throw errors.validation('maxPayments is below the payments already taken', [{ field: 'maxPayments', message: 'must not be below paymentCount + pendingCount' }]);
    }
    checkMethodsAgainstMaxPayments(session.paymentMethods, max);
    if (max !== session.maxPayments) changes.maxPayments = { from: session.maxPayments, to: max };
    next.maxPayments = max;
  }
  if (update.dueDate !== undefined) {
    if (update.dueDate.getTime() <= now.getTime()) throw errors.validation('dueDate must be in the future', [{ field: 'dueDate', message: 'must be in the future' }]);
    if (session.dueDate?.getTime() !== update.dueDate.getTime()) {
      changes.dueDate = { from: session.dueDate?.toISOString() ?? null, to: update.dueDate.toISOString() };
    }
    next.dueDate = update.dueDate;
  }
  if (update.isActive === true) {
    const oneTime = session.paymentMethods.some((m) => isOneTimeMethod(m.paymentType));
    const expired = context.expiredByDueDate === true || isExpired(session, now);
    if (session.maxPayments === null && oneTime && (session.status === 'paid' || expired)) {
      throw errors.businessRule('pix_boleto_one_to_one_reactivation_blocked', 'A paid or expired 1:1 Pix or boleto session cannot be reactivated');
    }
    if (session.status === 'paid') throw errors.businessRule('session_disabled', 'A paid 1:1 session cannot be reactivated');
  }
  if (update.isActive !== undefined && update.isActive !== session.isActive) {
    changes.isActive = { from: session.isActive, to: update.isActive };
    next.isActive = update.isActive;
  }
  if (next.isActive && next.status === 'created' && limitReached(next) && (changes.maxPayments || update.isActive === true)) {
    throw errors.businessRule('multiple_payments_limit_reached', 'The session reached its maximum number of payments; raise maxPayments to take more');
  }
  return { next, changes };
}

/** Whether the due date has passed. */
export function isExpired(session: Session, now: Date): boolean {
  return session.dueDate !== null && session.dueDate.getTime() <= now.getTime();
}
