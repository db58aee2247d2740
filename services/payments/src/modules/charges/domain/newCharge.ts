import { CHARGE_LIMITS, CURRENCY_MESSAGE, DATE_RANGE, isCurrencyCode } from '@platform/api-model';
import { errors, isUuid, type FieldViolation } from '@platform/kit';
import { isPaymentType, needsCard, PAYMENT_TYPES, RECURRENCES, type ChargePaymentMethod, type PaymentType, type SplitRule } from './charge';
import { parseSplitRules, type SplitRuleInput } from './splitRules';
import { brazilDate, isCalendarDate, nonEmpty, objectOrNull } from './values';

/** What a valid create request is: every broken field named at once, the rest normalised. */

/** A card typed by the buyer, as the request carries it: checked by the vault when the card is opened. */
export interface InlineCard {
  cardHolderName: string;
  cardNumber: string;
  cardCvv: string;
  cardExpirationDate: string;
}

/** A create request as the transport hands it over: text not given is empty or absent, nothing is checked yet. */
export interface ChargeRequest {
  merchantId: string;
  amount: number;
  currency?: string | undefined;
  orderId?: string | undefined;
  statementDescriptor?: string | undefined;
  description?: string | undefined;
  capture?: boolean | undefined;
  customerId?: string | undefined;
  sessionId?: string | undefined;
  paymentMethod?:
    | {
        paymentType: string;
        installments?: number | undefined;
        recurrence?: string | undefined;
        expiresIn?: number | undefined;
        expiresDate?: string | undefined;
        instructions?: string | undefined;
        interest?: Record<string, unknown> | undefined;
        fine?: Record<string, unknown> | undefined;
      }
    | undefined;
  paymentSource?:
    | {
        sourceType: string;
        cardId?: string | undefined;
        cardCvv?: string | undefined;
        tokenId?: string | undefined;
        customerId?: string | undefined;
        customer?: Record<string, unknown> | undefined;
        card?: InlineCard | undefined;
      }
    | undefined;
  splitRules?: SplitRuleInput[] | undefined;
  fraudAnalysis?: Record<string, unknown> | undefined;
  appInfo?: Record<string, unknown> | undefined;
}

/** The currencies the platform takes: the gateway's list (api-model), so both refuse the same codes. */
export { isCurrencyCode };

/** Where the card of a charge comes from, and who the buyer is. */
export type NewChargeSource =
  | { kind: 'card'; cardId?: string; cardCvv?: string; card?: InlineCard }
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

/** Validates and normalises a create request; every broken field is named at once. */
export function parseNewCharge(request: ChargeRequest, now: Date): NewCharge {
  const problems: FieldViolation[] = [];
  const merchantId = (request.merchantId ?? '').trim().toLowerCase();
  if (!isUuid(merchantId)) problems.push({ field: 'merchantId', message: 'must be a UUID' });
  const amount = request.amount;
  if (!Number.isSafeInteger(amount) || amount <= 0) problems.push({ field: 'amount', message: 'must be a positive integer in minor units' });
  const currency = (nonEmpty(request.currency) ?? 'BRL').toUpperCase();
  if (!isCurrencyCode(currency)) problems.push({ field: 'currency', message: CURRENCY_MESSAGE });

  const orderId = nonEmpty(request.orderId) ?? null;
  const { orderIdMaxLength, statementDescriptorMaxLength, descriptionMaxLength, maxInstallments: MAX_INSTALLMENTS } = CHARGE_LIMITS;
  if (orderId && orderId.length > orderIdMaxLength) problems.push({ field: 'orderId', message: `must be at most ${orderIdMaxLength} characters` });
  const statementDescriptor = nonEmpty(request.statementDescriptor) ?? null;
  if (statementDescriptor && statementDescriptor.length > statementDescriptorMaxLength) {
    problems.push({ field: 'statementDescriptor', message: `must be at most ${statementDescriptorMaxLength} characters` });
  }
  const description = nonEmpty(request.description) ?? null;
  if (description && description.length > descriptionMaxLength) problems.push({ field: 'description', message: `must be at most ${descriptionMaxLength} characters` });
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
      const expiresIn = method.expiresIn ?? 0;
      if (!Number.isSafeInteger(expiresIn) || expiresIn <= 0) {
        problems.push({ field: 'paymentMethod.expiresIn', message: 'must be a positive number of seconds' });
      }
      paymentMethod.expiresIn = expiresIn;
    }
    if (paymentType === 'boleto') {
      const expiresDate = nonEmpty(method.expiresDate) ?? '';
      if (!isCalendarDate(expiresDate)) problems.push({ field: 'paymentMethod.expiresDate', message: 'must be a date (YYYY-MM-DD)' });
      else if (expiresDate < brazilDate(now)) problems.push({ field: 'paymentMethod.expiresDate', message: 'must not be in the past' });
      else if (expiresDate > DATE_RANGE.latest) problems.push({ field: 'paymentMethod.expiresDate', message: `must be at most ${DATE_RANGE.latest}` });
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
