import type { payments } from '@platform/contracts';
import { errors, type FieldViolation } from '@platform/kit';
import { assertTransition, isChargeStatus, type ChargeStatus } from './chargeStatus';
import { isUuid } from './merchant';

/** Charge rules with no I/O: what a valid charge request is, and how capture, refund, split and fee amounts add up. */

export const PAYMENT_TYPES = ['credit', 'debit', 'pix', 'boleto', 'voucher'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** Payment types authorized against a card (voucher is a benefit card). */
export const CARD_PAYMENT_TYPES: readonly PaymentType[] = ['credit', 'debit', 'voucher'];

export function isPaymentType(value: string): value is PaymentType {
  return (PAYMENT_TYPES as readonly string[]).includes(value);
}

export function needsCard(paymentType: PaymentType): boolean {
  return CARD_PAYMENT_TYPES.includes(paymentType);
}

/** The declinedCode values of the product description; no other code is ever shown to a client. */
export const DECLINED_CODES = [
  'card_not_supported',
  'expired_card',
  'fraud_confirmed',
  'fraud_suspect',
  'generic',
  'insufficient_funds',
  'invalid_amount',
  'invalid_cvv',
  'invalid_data',
  'invalid_installment',
  'invalid_merchant',
  'invalid_number',
  'invalid_pin',
  'issuer_not_available',
  'lost_card',
  'not_permitted',
  'pickup_card',
  'pin_try_exceeded',
  'restricted_card',
  'security_violation',
  'service_not_allowed',
  'stolen_card',
  'transaction_not_allowed',
  'try_again',
] as const;
export type DeclinedCode = (typeof DECLINED_CODES)[number];

export function isDeclinedCode(value: string): value is DeclinedCode {
  return (DECLINED_CODES as readonly string[]).includes(value);
}

export const RECURRENCES = ['initial', 'subsequent', 'unscheduled'] as const;
export const MAX_INSTALLMENTS = 24;
const BASIS_POINTS = 10_000;

// ---------------------------------------------------------------- the charge as stored and shown

export type RequestType = 'authorization' | 'capture' | 'void' | 'refund' | 'antifraud';
/**
 * success: the provider did it; declined: the provider refused (a business answer); failed: no usable answer;
 * pending: a capture, void or refund reserved and being asked, never shown (see `settleOperation`).
 */
export type RequestStatus = 'success' | 'declined' | 'failed' | 'pending';

export interface SellerAmount {
  sellerId: string;
  amount: number;
}

export interface TransactionRequestRecord {
  id: string;
  chargeId: string;
  clientId: string;
  idempotencyKey: string;
  providerId: string | null;
  providerType: string;
  transactionId: string | null;
  amount: number;
  authorizationNsu: string | null;
  requestStatus: RequestStatus;
  requestType: RequestType;
  responseMs: number;
  networkAuthorizationCode: string | null;
  networkResponseCode: string | null;
  declinedCode: string | null;
  message: string | null;
  /** How a refund is taken from the split receivers, when the client said so. */
  splitRules: SellerAmount[] | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SplitRule {
  sellerId: string;
  /** Basis points of the charge amount; exclusive with amount. */
  percentage?: number;
  amount?: number;
  processingFee: boolean;
  chargeRemainderFee: boolean;
  liable: boolean;
}

export interface ChargePaymentMethod {
  paymentType: PaymentType;
  installments: number;
  recurrence?: string;
  expiresIn?: number;
  expiresDate?: string;
  instructions?: string;
  interest?: Record<string, unknown>;
  fine?: Record<string, unknown>;
  qrCodeData?: string;
  qrCodeImageUrl?: string;
  barcodeData?: string;
  barcodeImageUrl?: string;
  digitableLine?: string;
  /** ISO timestamp: when the Pix QR code stops working. */
  expiresAt?: string;
}

/** What the charge shows of its source: never the card number or the CVV. */
export interface ChargeSourceView {
  sourceType: string;
  cardId?: string;
  customerId?: string;
  brand?: string;
  first6digits?: string;
  last4digits?: string;
  cardHolderName?: string;
  expirationMonth?: number;
  expirationYear?: number;
  cvvChecked?: boolean;
  /** The inline customer of the request, kept on this charge only. */
  customer?: Record<string, unknown>;
}

export interface PlatformFeeDetails {
  amount: number;
  percentage?: number;
  fixedAmount?: number;
}

export const ANTIFRAUD_STATUSES = ['pending', 'approved', 'reproved', 'failed'] as const;
export type AntifraudStatus = (typeof ANTIFRAUD_STATUSES)[number];

export interface AntifraudState {
  providerId: string;
  status: AntifraudStatus;
  updatedAt: string;
}

export interface Charge {
  id: string;
  clientId: string;
  merchantId: string;
  customerId: string | null;
  sessionId: string | null;
  cardId: string | null;
  amount: number;
  originalAmount: number;
  capturedAmount: number;
  refundedAmount: number;
  currency: string;
  orderId: string | null;
  statementDescriptor: string | null;
  description: string | null;
  capture: boolean;
  isDispute: boolean;
  status: ChargeStatus;
  paymentMethod: ChargePaymentMethod;
  paymentSource: ChargeSourceView;
  splitRules: SplitRule[];
  platformFee: PlatformFeeDetails | null;
  antifraud: AntifraudState | null;
  appInfo: Record<string, unknown> | null;
  fraudAnalysis: Record<string, unknown> | null;
  providerId: string | null;
  providerType: string | null;
  providerName: string | null;
  declinedCode: string | null;
  transactionRequests: TransactionRequestRecord[];
  createdAt: Date;
  updatedAt: Date;
}

// ---------------------------------------------------------------- create request

let currencyCodes: ReadonlySet<string> | undefined;

/** ISO 4217 codes as the runtime's ICU knows them. */
export function isCurrencyCode(code: string): boolean {
  currencyCodes ??= new Set(Intl.supportedValuesOf('currency'));
  return /^[A-Z]{3}$/.test(code) && currencyCodes.has(code);
}

/** Where the card of a charge comes from, and who the buyer is. */
export type NewChargeSource =
  | { kind: 'card'; cardId?: string; cardCvv?: string; card?: payments.CardInput }
  | { kind: 'token'; tokenId: string }
  | { kind: 'customer'; customerId?: string; customer?: Record<string, unknown>; cardId?: string; cardCvv?: string };

export interface NewCharge {
  merchantId: string;
  amount: number;
  currency: string;
  orderId: string | null;
  statementDescriptor: string | null;
  description: string | null;
  capture: boolean;
  customerId: string | null;
  sessionId: string | null;
  paymentMethod: ChargePaymentMethod;
  source: NewChargeSource;
  splitRules: SplitRule[];
  fraudAnalysis: Record<string, unknown> | null;
  appInfo: Record<string, unknown> | null;
}

function nonEmpty(value: string | undefined | null): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function objectOrNull(value: Record<string, unknown> | undefined): Record<string, unknown> | null {
  return value && Object.keys(value).length > 0 ? value : null;
}

/** Today's date in Brasília, where boletos fall due. */
export function brazilDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function parseSplitRules(rules: payments.SplitRule[], amount: number, problems: FieldViolation[]): SplitRule[] {
  const parsed: SplitRule[] = [];
  const sellers = new Set<string>();
  rules.forEach((rule, i) => {
    const field = `splitRules.${i}`;
    if (!isUuid(rule.sellerId ?? '')) problems.push({ field: `${field}.sellerId`, message: 'must be a UUID' });
    else if (sellers.has(rule.sellerId.toLowerCase())) problems.push({ field: `${field}.sellerId`, message: 'appears twice' });
    else sellers.add(rule.sellerId.toLowerCase());
    const hasPercentage = rule.percentage !== undefined;
    const hasAmount = rule.amount !== undefined;
    if (hasPercentage === hasAmount) {
      problems.push({ field, message: 'give either percentage (basis points) or amount' });
    } else if (hasPercentage && (!Number.isInteger(rule.percentage) || rule.percentage! < 1 || rule.percentage! > BASIS_POINTS)) {
      problems.push({ field: `${field}.percentage`, message: 'must be an integer from 1 to 10000 basis points' });
    } else if (hasAmount && (!Number.isSafeInteger(rule.amount) || rule.amount! <= 0)) {
      problems.push({ field: `${field}.amount`, message: 'must be a positive integer in minor units' });
    }
    parsed.push({
      sellerId: (rule.sellerId ?? '').toLowerCase(),
      ...(hasPercentage ? { percentage: rule.percentage } : {}),
      ...(hasAmount ? { amount: rule.amount } : {}),
      processingFee: rule.processingFee ?? false,
      chargeRemainderFee: rule.chargeRemainderFee ?? false,
      liable: rule.liable ?? false,
    });
  });
  if (parsed.length > 0 && problems.every((p) => !p.field.startsWith('splitRules')) && Number.isSafeInteger(amount) && amount > 0) {
    if (!splitAddsUp(parsed, amount)) problems.push({ field: 'splitRules', message: 'shares must add up to the charge amount' });
  }
  return parsed;
}

/** Exact, in integers: the amounts plus the percentages of the amount equal the amount. */
export function splitAddsUp(rules: SplitRule[], amount: number): boolean {
  let fixed = 0n;
  let bps = 0n;
  for (const rule of rules) {
    if (rule.amount !== undefined) fixed += BigInt(rule.amount);
    if (rule.percentage !== undefined) bps += BigInt(rule.percentage);
  }
  const total = BigInt(amount);
  return fixed * BigInt(BASIS_POINTS) + total * bps === total * BigInt(BASIS_POINTS);
}

/**
 * The minor units each receiver gets. Percentage shares are rounded down and the cents lost to rounding go,
 * one each, to the shares with the largest remainders (ties to the earlier rule), so the parts add up exactly.
 */
export function splitAmounts(rules: SplitRule[], amount: number): SellerAmount[] {
  const total = BigInt(amount);
  const shares = rules.map((rule, index) => {
    if (rule.amount !== undefined) return { index, sellerId: rule.sellerId, amount: BigInt(rule.amount), remainder: -1n };
    const exact = total * BigInt(rule.percentage ?? 0);
    return { index, sellerId: rule.sellerId, amount: exact / BigInt(BASIS_POINTS), remainder: exact % BigInt(BASIS_POINTS) };
  });
  let missing = total - shares.reduce((sum, s) => sum + s.amount, 0n);
  const byRemainder = shares
    .filter((s) => s.remainder > 0n)
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const share of byRemainder) {
    if (missing <= 0n) break;
    share.amount += 1n;
    missing -= 1n;
  }
  return shares.map((s) => ({ sellerId: s.sellerId, amount: Number(s.amount) }));
}

/** Validates and normalises a create request; every broken field is named at once. */
export function parseNewCharge(request: payments.CreateChargeRequest, now: Date): NewCharge {
  const problems: FieldViolation[] = [];
  const merchantId = (request.merchantId ?? '').trim().toLowerCase();
  if (!isUuid(merchantId)) problems.push({ field: 'merchantId', message: 'must be a UUID' });
  const amount = request.amount;
  if (!Number.isSafeInteger(amount) || amount <= 0) problems.push({ field: 'amount', message: 'must be a positive integer in minor units' });
  const currency = (nonEmpty(request.currency) ?? 'BRL').toUpperCase();
  if (!isCurrencyCode(currency)) problems.push({ field: 'currency', message: 'must be an ISO 4217 currency code' });

  const orderId = nonEmpty(request.orderId) ?? null;
  if (orderId && orderId.length > 100) problems.push({ field: 'orderId', message: 'must be at most 100 characters' });
  const statementDescriptor = nonEmpty(request.statementDescriptor) ?? null;
  if (statementDescriptor && statementDescriptor.length > 22) problems.push({ field: 'statementDescriptor', message: 'must be at most 22 characters' });
  const description = nonEmpty(request.description) ?? null;
  if (description && description.length > 500) problems.push({ field: 'description', message: 'must be at most 500 characters' });
  const sessionId = nonEmpty(request.sessionId)?.toLowerCase() ?? null;
  if (sessionId && !isUuid(sessionId)) problems.push({ field: 'sessionId', message: 'must be a UUID' });
  let customerId = nonEmpty(request.customerId)?.toLowerCase() ?? null;
  if (customerId && !isUuid(customerId)) problems.push({ field: 'customerId', message: 'must be a UUID' });

  const method = request.paymentMethod;
  const rawType = (method?.paymentType ?? '').trim().toLowerCase();
  let paymentType: PaymentType = 'credit';
  if (!method) problems.push({ field: 'paymentMethod', message: 'is required' });
  else if (!isPaymentType(rawType)) problems.push({ field: 'paymentMethod.paymentType', message: `must be one of ${PAYMENT_TYPES.join(', ')}` });
  else paymentType = rawType;

  const paymentMethod: ChargePaymentMethod = { paymentType, installments: 1 };
  if (method && isPaymentType(rawType)) {
    const installments = method.installments || 1;
    const maxInstallments = paymentType === 'credit' || paymentType === 'pix' ? MAX_INSTALLMENTS : 1;
    if (!Number.isInteger(installments) || installments < 1 || installments > maxInstallments) {
      problems.push({
        field: 'paymentMethod.installments',
        message: maxInstallments === 1 ? `must be 1 for ${paymentType}` : `must be from 1 to ${maxInstallments}`,
      });
    }
    paymentMethod.installments = installments;
    const recurrence = nonEmpty(method.recurrence)?.toLowerCase();
    if (recurrence) {
      if (!(RECURRENCES as readonly string[]).includes(recurrence)) {
        problems.push({ field: 'paymentMethod.recurrence', message: `must be one of ${RECURRENCES.join(', ')}` });
      }
      else if (!needsCard(paymentType)) problems.push({ field: 'paymentMethod.recurrence', message: 'applies to card payments only' });
      paymentMethod.recurrence = recurrence;
    }
    if (paymentType === 'pix' || paymentType === 'boleto') {
      if (currency !== 'BRL') problems.push({ field: 'currency', message: `${paymentType} is charged in BRL` });
    }
    if (paymentType === 'pix') {
      if (!Number.isSafeInteger(method.expiresIn) || method.expiresIn <= 0) {
        problems.push({ field: 'paymentMethod.expiresIn', message: 'must be a positive number of seconds' });
      }
      paymentMethod.expiresIn = method.expiresIn;
    }
    if (paymentType === 'boleto') {
      const expiresDate = nonEmpty(method.expiresDate) ?? '';
      if (!isCalendarDate(expiresDate)) problems.push({ field: 'paymentMethod.expiresDate', message: 'must be a date (YYYY-MM-DD)' });
      else if (expiresDate < brazilDate(now)) problems.push({ field: 'paymentMethod.expiresDate', message: 'must not be in the past' });
      paymentMethod.expiresDate = expiresDate;
      const instructions = nonEmpty(method.instructions);
      if (instructions) paymentMethod.instructions = instructions;
      if (method.interest && Object.keys(method.interest).length > 0) paymentMethod.interest = method.interest;
      if (method.fine && Object.keys(method.fine).length > 0) paymentMethod.fine = method.fine;
    }
  }

  const source = request.paymentSource;
  const sourceType = (source?.sourceType ?? '').trim().toLowerCase();
  let parsedSource: NewChargeSource = { kind: 'card' };
  let wallet = false;
  if (!source) {
    problems.push({ field: 'paymentSource', message: 'is required' });
  } else {
    const cardId = nonEmpty(source.cardId)?.toLowerCase();
    if (cardId && !isUuid(cardId)) problems.push({ field: 'paymentSource.cardId', message: 'must be a UUID' });
    const cardCvv = nonEmpty(source.cardCvv);
    switch (sourceType) {
      case 'card':
        if (cardId && source.card) problems.push({ field: 'paymentSource', message: 'give cardId or card, not both' });
        else if (!cardId && !source.card) problems.push({ field: 'paymentSource.cardId', message: 'is required (or an inline card)' });
        parsedSource = {
          kind: 'card',
          ...(cardId ? { cardId } : {}),
          ...(cardCvv ? { cardCvv } : {}),
          ...(source.card ? { card: { ...source.card } } : {}),
        };
        break;
      case 'token': {
        const tokenId = nonEmpty(source.tokenId)?.toLowerCase() ?? '';
        if (!isUuid(tokenId)) problems.push({ field: 'paymentSource.tokenId', message: 'must be a UUID' });
        parsedSource = { kind: 'token', tokenId };
        break;
      }
      case 'customer': {
        const sourceCustomerId = nonEmpty(source.customerId)?.toLowerCase();
        const inline = objectOrNull(source.customer);
        if (sourceCustomerId && !isUuid(sourceCustomerId)) problems.push({ field: 'paymentSource.customerId', message: 'must be a UUID' });
        if (!sourceCustomerId && !inline) problems.push({ field: 'paymentSource.customerId', message: 'is required (or an inline customer)' });
        if (sourceCustomerId && customerId && sourceCustomerId !== customerId) {
          problems.push({ field: 'paymentSource.customerId', message: 'differs from customerId' });
        }
        customerId = sourceCustomerId ?? customerId;
        parsedSource = {
          kind: 'customer',
          ...(sourceCustomerId ? { customerId: sourceCustomerId } : {}),
          ...(inline ? { customer: inline } : {}),
          ...(cardId ? { cardId } : {}),
          ...(cardCvv ? { cardCvv } : {}),
        };
        break;
      }
      case 'wallet':
        wallet = true;
        break;
      default:
        problems.push({ field: 'paymentSource.sourceType', message: 'must be one of card, token, customer, wallet' });
    }
    if (method && isPaymentType(rawType) && !wallet) {
      const hasCard = parsedSource.kind === 'token' || parsedSource.cardId !== undefined || (parsedSource.kind === 'card' && parsedSource.card !== undefined);
      // A card source without a card was named above; a customer source may omit its card only for Pix and boleto.
      if (needsCard(paymentType) && !hasCard && sourceType === 'customer') {
        problems.push({ field: 'paymentSource', message: `a ${paymentType} charge needs a card (cardId, an inline card or a token)` });
      }
      if (!needsCard(paymentType) && (sourceType === 'card' || sourceType === 'token')) {
        problems.push({ field: 'paymentSource.sourceType', message: `a ${paymentType} charge takes the customer source, not a card` });
      }
    }
  }

  const splitRules = parseSplitRules(request.splitRules ?? [], amount, problems);

  if (problems.length > 0) throw errors.validation('Invalid charge', problems);
  if (wallet) throw errors.businessRule('payment_source_not_supported', 'Wallet payment sources are not supported yet');

  return {
    merchantId,
    amount,
    currency,
    orderId,
    statementDescriptor,
    description,
    capture: request.capture ?? true,
    customerId,
    sessionId,
    paymentMethod,
    source: parsedSource,
    splitRules,
    fraudAnalysis: objectOrNull(request.fraudAnalysis),
    appInfo: objectOrNull(request.appInfo),
  };
}

// ---------------------------------------------------------------- platform fee

export interface FeeRule {
  percentage?: number;
  fixedAmount?: number;
  paymentMethod: string;
  installment?: number;
}

/**
 * The fee rule for a charge: the payment method's rule for this number of installments, else the payment
 * method's rule without installments, else the `default` rule likewise.
 */
export function matchingFeeRule(rules: FeeRule[], paymentType: PaymentType, installments: number): FeeRule | undefined {
  for (const method of [paymentType, 'default']) {
    const forMethod = rules.filter((r) => r.paymentMethod === method);
    const exact = forMethod.find((r) => r.installment === installments);
    if (exact) return exact;
    const general = forMethod.find((r) => r.installment === undefined || r.installment === null);
    if (general) return general;
  }
  return undefined;
}

/** Only charges with split rules pay the platform fee, and only when the merchant enabled it. */
export function platformFeeFor(
  merchant: { platformFeeEnabled: boolean; platformFeeRules: FeeRule[] },
  charge: { amount: number; paymentType: PaymentType; installments: number; splitRules: SplitRule[] },
): PlatformFeeDetails | null {
  if (!merchant.platformFeeEnabled || charge.splitRules.length === 0) return null;
  const rule = matchingFeeRule(merchant.platformFeeRules, charge.paymentType, charge.installments);
  if (!rule) return null;
  const percentagePart = rule.percentage ? Number((BigInt(charge.amount) * BigInt(rule.percentage)) / BigInt(BASIS_POINTS)) : 0;
  const amount = percentagePart + (rule.fixedAmount ?? 0);
  if (amount > charge.amount) {
    throw errors.businessRule('platform_fee_exceeds_amount', 'The platform fee would be larger than the charge amount');
  }
  return {
    amount,
    ...(rule.percentage !== undefined && rule.percentage !== null ? { percentage: rule.percentage } : {}),
    ...(rule.fixedAmount !== undefined && rule.fixedAmount !== null ? { fixedAmount: rule.fixedAmount } : {}),
  };
}

// ---------------------------------------------------------------- capture, void, refund

function requirePositiveAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw errors.validation('Invalid amount', [{ field: 'amount', message: 'must be a positive integer in minor units' }]);
  }
}

/**
 * A capture takes a pre-authorization whole or in part; the part not captured is released. While an antifraud
 * analysis is pending, only its decision may capture.
 */
export function planCapture(charge: Pick<Charge, 'status' | 'amount' | 'antifraud'>, requested: number | undefined): { amount: number } {
  assertTransition(charge.status, 'authorized', 'capture');
  if (charge.antifraud?.status === 'pending') {
    throw errors.businessRule('antifraud_pending', 'The antifraud analysis of this charge has not been decided yet');
  }
  const amount = requested ?? charge.amount;
  requirePositiveAmount(amount);
  if (amount > charge.amount) {
    throw errors.businessRule('capture_exceeds_authorized_amount', `At most ${charge.amount} can be captured`);
  }
  return { amount };
}

export function applyCapture(charge: Charge, amount: number, at: Date): Charge {
  return { ...charge, status: 'authorized', amount, capturedAmount: amount, updatedAt: at };
}

export interface VoidPlan {
  /** void: an authorization (or an unpaid Pix/boleto) is cancelled; refund: captured money goes back. */
  kind: 'void' | 'refund';
  amount: number;
  to: ChargeStatus;
  splitRules: SellerAmount[] | null;
}

/**
 * Before capture a void cancels the whole authorization (an unpaid Pix or boleto is canceled); after capture it
 * is a refund of `amount`, by default what is left, and only the refund that returns everything voids the charge.
 * Callers run this on a locked charge row with the refunds still being asked counted as refunded, so two
 * refunds cannot both see the same remainder.
 */
export function planVoid(
  charge: Pick<Charge, 'status' | 'amount' | 'capturedAmount' | 'refundedAmount' | 'splitRules'>,
  requested: number | undefined,
  refundSplit: SellerAmount[] = [],
): VoidPlan {
  if (charge.status === 'pending' || charge.status === 'pre_authorized') {
    const to: ChargeStatus = charge.status === 'pending' ? 'canceled' : 'voided';
    assertTransition(charge.status, to, 'void');
    if (requested !== undefined && requested !== charge.amount) {
      throw errors.validation('Invalid amount', [{ field: 'amount', message: `an authorization is voided whole (${charge.amount})` }]);
    }
    if (refundSplit.length > 0) {
      throw errors.validation('Invalid splitRules', [{ field: 'splitRules', message: 'only a refund after capture is split' }]);
    }
    return { kind: 'void', amount: charge.amount, to, splitRules: null };
  }
  if (charge.status !== 'authorized') assertTransition(charge.status, 'voided', 'refund');
  const remaining = charge.capturedAmount - charge.refundedAmount;
  const amount = requested ?? remaining;
  requirePositiveAmount(amount);
  if (amount > remaining) {
    throw errors.businessRule('refund_exceeds_captured_amount', `At most ${remaining} can still be refunded`);
  }
  const to: ChargeStatus = amount === remaining ? 'voided' : 'authorized';
  assertTransition(charge.status, to, 'refund');
  return { kind: 'refund', amount, to, splitRules: parseRefundSplit(charge.splitRules, refundSplit, amount) };
}

function parseRefundSplit(chargeRules: SplitRule[], refundSplit: SellerAmount[], amount: number): SellerAmount[] | null {
  if (refundSplit.length === 0) return null;
  const problems: FieldViolation[] = [];
  const receivers = new Set(chargeRules.map((r) => r.sellerId));
  let sum = 0;
  refundSplit.forEach((rule, i) => {
    if (!receivers.has((rule.sellerId ?? '').toLowerCase())) {
      problems.push({ field: `splitRules.${i}.sellerId`, message: 'is not a receiver of this charge' });
    }
    if (!Number.isSafeInteger(rule.amount) || rule.amount <= 0) {
      problems.push({ field: `splitRules.${i}.amount`, message: 'must be a positive integer in minor units' });
    }
    sum += rule.amount;
  });
  if (problems.length === 0 && sum !== amount) problems.push({ field: 'splitRules', message: `amounts must add up to the refund (${amount})` });
  if (problems.length > 0) throw errors.validation('Invalid splitRules', problems);
  return refundSplit.map((r) => ({ sellerId: r.sellerId.toLowerCase(), amount: r.amount }));
}

export function applyVoid(charge: Charge, plan: VoidPlan, at: Date): Charge {
  return {
    ...charge,
    status: plan.to,
    refundedAmount: plan.kind === 'refund' ? charge.refundedAmount + plan.amount : charge.refundedAmount,
    updatedAt: at,
  };
}

/**
 * Why a capture, void or refund was asked of the provider, kept with the request while it is pending: whoever
 * settles it (the request itself, its retry, or the job that resumes abandoned requests) changes the charge the
 * same way.
 */
export type OperationCause = { by: 'client' } | { by: 'antifraud'; decision: 'approved' | 'reproved' | 'failed' };

export interface DoneOperation {
  type: 'capture' | 'void' | 'refund';
  amount: number;
  cause: OperationCause;
}

/**
 * The charge once its provider did a reserved operation, computed from the row as it is then (locked): other
 * refunds may have settled since the reservation, so a refund voids the charge only if it completes the
 * captured amount now. No transition is checked here: the reservation checked it, and what the provider did is
 * recorded whatever happened meanwhile.
 */
export function settleOperation(charge: Charge, done: DoneOperation, at: Date): Charge {
  if (done.cause.by === 'antifraud') {
    const { decision } = done.cause;
    const antifraud = charge.antifraud ? { ...charge.antifraud, status: decision, updatedAt: at.toISOString() } : null;
    const next: Charge =
      done.type === 'capture'
        ? applyCapture(charge, done.amount, at)
        : { ...charge, status: 'failed', declinedCode: antifraudDeclinedCode(decision === 'reproved' ? 'reproved' : 'failed'), updatedAt: at };
    return { ...next, antifraud };
  }
  switch (done.type) {
    case 'capture':
      return applyCapture(charge, done.amount, at);
    case 'void':
      return applyVoid(charge, { kind: 'void', amount: done.amount, to: charge.status === 'pending' ? 'canceled' : 'voided', splitRules: null }, at);
    case 'refund': {
      const everything = charge.refundedAmount + done.amount >= charge.capturedAmount;
      return applyVoid(charge, { kind: 'refund', amount: done.amount, to: everything ? 'voided' : charge.status, splitRules: null }, at);
    }
  }
}

/** The statuses the sandbox route may set, as a provider notification would. */
export const SANDBOX_TARGET_STATUSES = ['authorized', 'voided', 'charged_back', 'refund_pending', 'failed'] as const;

/** What a provider notification changes besides the status. */
export function applyNotification(charge: Charge, to: ChargeStatus, at: Date): Charge {
  assertTransition(charge.status, to, 'notification');
  const next: Charge = { ...charge, status: to, updatedAt: at };
  if (to === 'authorized' && (charge.status === 'pending' || charge.status === 'pre_authorized' || charge.status === 'capture_pending')) {
    next.capturedAmount = charge.amount;
  }
  if (to === 'voided' && charge.status !== 'pre_authorized') next.refundedAmount = next.capturedAmount;
  if (to === 'charged_back') next.isDispute = true;
  return next;
}

/** The declinedCode of a charge the antifraud provider stopped: reproved is suspected fraud; a failed analysis may be retried. */
export function antifraudDeclinedCode(status: 'reproved' | 'failed'): DeclinedCode {
  return status === 'reproved' ? 'fraud_suspect' : 'try_again';
}

// ---------------------------------------------------------------- list filters

export interface ChargeFilters {
  merchantId?: string;
  id?: string;
  sessionId?: string;
  statuses?: ChargeStatus[];
  paymentType?: PaymentType;
  orderId?: string;
  providerType?: string;
  /** created_at >= createdFrom and < createdUntil (the `created` filter). */
  createdFrom?: Date;
  createdUntil?: Date;
  /** created_at > createdAfter (`created.gt`) and < createdBefore (`created.lt`). */
  createdAfter?: Date;
  createdBefore?: Date;
}

export interface ChargeFilterInput {
  merchantId?: string;
  id?: string;
  sessionId?: string;
  status?: string[];
  paymentType?: string;
  orderId?: string;
  created?: string;
  createdGt?: Date;
  createdLt?: Date;
  providerType?: string;
}

const DAY_MS = 86_400_000;

/**
 * An empty filter is no filter. Statuses may come comma-joined. `created` is a day (YYYY-MM-DD, UTC), or an
 * instant that matches charges created in that millisecond.
 */
export function parseChargeFilters(input: ChargeFilterInput): ChargeFilters {
  const problems: FieldViolation[] = [];
  const filters: ChargeFilters = {};
  const text = (v: string | undefined) => nonEmpty(v);
  const merchantId = text(input.merchantId);
  if (merchantId) filters.merchantId = merchantId.toLowerCase();
  const id = text(input.id);
  if (id) filters.id = id.toLowerCase();
  const sessionId = text(input.sessionId);
  if (sessionId) filters.sessionId = sessionId.toLowerCase();
  const statuses = (input.status ?? []).flatMap((s) => s.split(',')).map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  if (statuses.length > 0) {
    const unknown = statuses.filter((s) => !isChargeStatus(s));
    if (unknown.length > 0) problems.push({ field: 'status', message: `unknown status ${unknown.join(', ')}` });
    else filters.statuses = [...new Set(statuses)] as ChargeStatus[];
  }
  const paymentType = text(input.paymentType)?.toLowerCase();
  if (paymentType) {
    if (!isPaymentType(paymentType)) problems.push({ field: 'paymentType', message: `must be one of ${PAYMENT_TYPES.join(', ')}` });
    else filters.paymentType = paymentType;
  }
  const orderId = text(input.orderId);
  if (orderId) filters.orderId = orderId;
  const providerType = text(input.providerType);
  if (providerType) filters.providerType = providerType.toUpperCase();
  const created = text(input.created);
  if (created) {
    if (isCalendarDate(created)) {
      filters.createdFrom = new Date(`${created}T00:00:00.000Z`);
      filters.createdUntil = new Date(filters.createdFrom.getTime() + DAY_MS);
    } else if (/^\d{4}-\d{2}-\d{2}T/.test(created) && !Number.isNaN(Date.parse(created))) {
      filters.createdFrom = new Date(Date.parse(created));
      filters.createdUntil = new Date(filters.createdFrom.getTime() + 1);
    } else {
      problems.push({ field: 'created', message: 'must be a date (YYYY-MM-DD) or an RFC 3339 instant' });
    }
  }
  if (input.createdGt) filters.createdAfter = input.createdGt;
  if (input.createdLt) filters.createdBefore = input.createdLt;
  if (problems.length > 0) throw errors.validation('Invalid filters', problems);
  return filters;
}

// ---------------------------------------------------------------- the charge as JSON (event data)

function requestToJson(r: TransactionRequestRecord) {
  return {
    id: r.id,
    idempotencyKey: r.idempotencyKey,
    providerId: r.providerId,
    providerType: r.providerType,
    transactionId: r.transactionId,
    amount: r.amount,
    authorizationNsu: r.authorizationNsu,
    requestStatus: r.requestStatus,
    requestType: r.requestType,
    responseTs: String(r.responseMs),
    providerAuthorization: { networkAuthorizationCode: r.networkAuthorizationCode, networkResponseCode: r.networkResponseCode },
    declinedCode: r.declinedCode,
    message: r.message,
    ...(r.splitRules ? { splitRules: r.splitRules } : {}),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The charge as the API shows it: camelCase keys, ISO timestamps, no card number or CVV (none is ever held). */
export function chargeToJson(charge: Charge) {
  return {
    id: charge.id,
    clientId: charge.clientId,
    merchantId: charge.merchantId,
    customerId: charge.customerId,
    sessionId: charge.sessionId,
    amount: charge.amount,
    originalAmount: charge.originalAmount,
    capturedAmount: charge.capturedAmount,
    refundedAmount: charge.refundedAmount,
    currency: charge.currency,
    orderId: charge.orderId,
    statementDescriptor: charge.statementDescriptor,
    description: charge.description,
    capture: charge.capture,
    isDispute: charge.isDispute,
    status: charge.status,
    paymentMethod: charge.paymentMethod,
    paymentSource: charge.paymentSource,
    transactionRequests: charge.transactionRequests.map(requestToJson),
    splitRules: charge.splitRules,
    platformFee: charge.platformFee,
    antifraud: charge.antifraud,
    appInfo: charge.appInfo,
    fraudAnalysis: charge.fraudAnalysis,
    providerId: charge.providerId,
    providerType: charge.providerType,
    providerName: charge.providerName,
    declinedCode: charge.declinedCode,
    createdAt: charge.createdAt.toISOString(),
    updatedAt: charge.updatedAt.toISOString(),
  };
}
