import { payments } from '@platform/contracts';
import type { IdempotencyCodec } from '@platform/kit';
import type { ChargeAnswers, ThreeDSSetup } from '../app/charges/deps';
import type { ChargeRequest } from '../domain/newCharge';
import { asSent } from './wire';
import type { AntifraudStatus, Charge, ChargePaymentMethod, ChargeSourceView, PaymentType, RequestStatus, RequestType, SplitRule, TransactionRequestRecord } from '../domain/charge';
import type { ChargeStatus } from '../domain/chargeStatus';

const orEmpty = (value: string | null | undefined) => value ?? '';
const orNull = (value: string | undefined) => (value ? value : null);

function toPaymentMethodMessage(m: ChargePaymentMethod): payments.PaymentMethod {
  return {
    paymentType: m.paymentType,
    installments: m.installments,
    recurrence: orEmpty(m.recurrence),
    expiresIn: m.expiresIn ?? 0,
    expiresDate: orEmpty(m.expiresDate),
    instructions: orEmpty(m.instructions),
    interest: m.interest,
    fine: m.fine,
    qrCodeData: orEmpty(m.qrCodeData),
    qrCodeImageUrl: orEmpty(m.qrCodeImageUrl),
    barcodeData: orEmpty(m.barcodeData),
    barcodeImageUrl: orEmpty(m.barcodeImageUrl),
    digitableLine: orEmpty(m.digitableLine),
    expiresAt: m.expiresAt ? new Date(m.expiresAt) : undefined,
  };
}

function fromPaymentMethodMessage(m: payments.PaymentMethod | undefined): ChargePaymentMethod {
  const method: ChargePaymentMethod = { paymentType: (m?.paymentType ?? 'credit') as PaymentType, installments: m?.installments ?? 1 };
  const strings = ['recurrence', 'expiresDate', 'instructions', 'qrCodeData', 'qrCodeImageUrl', 'barcodeData', 'barcodeImageUrl', 'digitableLine'] as const;
  for (const key of strings) if (m?.[key]) method[key] = m[key];
  if (m?.expiresIn) method.expiresIn = m.expiresIn;
  if (m?.interest) method.interest = m.interest;
  if (m?.fine) method.fine = m.fine;
  if (m?.expiresAt) method.expiresAt = m.expiresAt.toISOString();
  return method;
}

function toSourceMessage(s: ChargeSourceView): payments.ChargeSource {
  return {
    sourceType: s.sourceType,
    cardId: orEmpty(s.cardId),
    customerId: orEmpty(s.customerId),
    brand: orEmpty(s.brand),
    first6digits: orEmpty(s.first6digits),
    last4digits: orEmpty(s.last4digits),
    cardHolderName: orEmpty(s.cardHolderName),
    expirationMonth: s.expirationMonth ?? 0,
    expirationYear: s.expirationYear ?? 0,
    cvvChecked: s.cvvChecked ?? false,
    customer: s.customer,
  };
}

function fromSourceMessage(s: payments.ChargeSource | undefined): ChargeSourceView {
  const view: ChargeSourceView = { sourceType: s?.sourceType ?? '' };
  const strings = ['cardId', 'customerId', 'brand', 'first6digits', 'last4digits', 'cardHolderName'] as const;
  for (const key of strings) if (s?.[key]) view[key] = s[key];
  if (s?.expirationMonth) view.expirationMonth = s.expirationMonth;
  if (s?.expirationYear) view.expirationYear = s.expirationYear;
  if (s?.brand) view.cvvChecked = s.cvvChecked;
  if (s?.customer) view.customer = s.customer;
  return view;
}

function toSplitRuleMessage(rule: SplitRule): payments.SplitRule {
  return {
    sellerId: rule.sellerId,
    percentage: rule.percentage,
    amount: rule.amount,
    processingFee: rule.processingFee,
    chargeRemainderFee: rule.chargeRemainderFee,
    liable: rule.liable,
  };
}

function fromSplitRuleMessage(rule: payments.SplitRule): SplitRule {
  return {
    sellerId: rule.sellerId,
    ...(rule.percentage !== undefined ? { percentage: rule.percentage } : {}),
    ...(rule.amount !== undefined ? { amount: rule.amount } : {}),
    processingFee: rule.processingFee,
    chargeRemainderFee: rule.chargeRemainderFee,
    liable: rule.liable,
  };
}

function toRequestMessage(r: TransactionRequestRecord): payments.TransactionRequest {
  return {
    id: r.id,
    idempotencyKey: r.idempotencyKey,
    providerId: orEmpty(r.providerId),
    providerType: r.providerType,
    transactionId: orEmpty(r.transactionId),
    amount: r.amount,
    authorizationNsu: orEmpty(r.authorizationNsu),
    requestStatus: r.requestStatus,
    requestType: r.requestType,
    responseTs: String(r.responseMs),
    providerAuthorization: {
      networkAuthorizationCode: orEmpty(r.networkAuthorizationCode),
      networkResponseCode: orEmpty(r.networkResponseCode),
    },
    declinedCode: orEmpty(r.declinedCode),
    message: orEmpty(r.message),
    splitRules: (r.splitRules ?? []).map((s) => ({ sellerId: s.sellerId, amount: s.amount, processingFee: false, chargeRemainderFee: false, liable: false })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function fromRequestMessage(m: payments.TransactionRequest, charge: { id: string; clientId: string }): TransactionRequestRecord {
  return {
    id: m.id,
    chargeId: charge.id,
    clientId: charge.clientId,
    idempotencyKey: m.idempotencyKey,
    providerId: orNull(m.providerId),
    providerType: m.providerType,
    transactionId: orNull(m.transactionId),
    amount: m.amount,
    authorizationNsu: orNull(m.authorizationNsu),
    requestStatus: m.requestStatus as RequestStatus,
    requestType: m.requestType as RequestType,
    responseMs: Number(m.responseTs) || 0,
    networkAuthorizationCode: orNull(m.providerAuthorization?.networkAuthorizationCode),
    networkResponseCode: orNull(m.providerAuthorization?.networkResponseCode),
    declinedCode: orNull(m.declinedCode),
    message: orNull(m.message),
    splitRules: m.splitRules.length > 0 ? m.splitRules.map((s) => ({ sellerId: s.sellerId, amount: s.amount ?? 0 })) : null,
    createdAt: m.createdAt ?? new Date(0),
    updatedAt: m.updatedAt ?? new Date(0),
  };
}

export function toChargeMessage(charge: Charge): payments.Charge {
  return {
    id: charge.id,
    clientId: charge.clientId,
    merchantId: charge.merchantId,
    customerId: orEmpty(charge.customerId),
    sessionId: orEmpty(charge.sessionId),
    amount: charge.amount,
    originalAmount: charge.originalAmount,
    capturedAmount: charge.capturedAmount,
    refundedAmount: charge.refundedAmount,
    currency: charge.currency,
    orderId: orEmpty(charge.orderId),
    statementDescriptor: orEmpty(charge.statementDescriptor),
    description: orEmpty(charge.description),
    capture: charge.capture,
    isDispute: charge.isDispute,
    status: charge.status,
    paymentMethod: toPaymentMethodMessage(charge.paymentMethod),
    paymentSource: toSourceMessage(charge.paymentSource),
    transactionRequests: charge.transactionRequests.map(toRequestMessage),
    splitRules: charge.splitRules.map(toSplitRuleMessage),
    platformFee: charge.platformFee ? { ...charge.platformFee } : undefined,
    antifraud: charge.antifraud
      ? { providerId: charge.antifraud.providerId, status: charge.antifraud.status, updatedAt: new Date(charge.antifraud.updatedAt) }
      : undefined,
    appInfo: charge.appInfo ?? undefined,
    fraudAnalysis: charge.fraudAnalysis ?? undefined,
    providerId: orEmpty(charge.providerId),
    providerType: orEmpty(charge.providerType),
    providerName: orEmpty(charge.providerName),
    declinedCode: orEmpty(charge.declinedCode),
    createdAt: charge.createdAt,
    updatedAt: charge.updatedAt,
  };
}

/** The charge as a caller of the RPC receives it. */
export function sentCharge(charge: Charge): payments.Charge {
  return asSent(payments.Charge, toChargeMessage(charge));
}

function fromChargeMessage(m: payments.Charge): Charge {
  const charge = { id: m.id, clientId: m.clientId };
  return {
    id: m.id,
    clientId: m.clientId,
    merchantId: m.merchantId,
    customerId: orNull(m.customerId),
    sessionId: orNull(m.sessionId),
    cardId: orNull(m.paymentSource?.cardId),
    amount: m.amount,
    originalAmount: m.originalAmount,
    capturedAmount: m.capturedAmount,
    refundedAmount: m.refundedAmount,
    currency: m.currency,
    orderId: orNull(m.orderId),
    statementDescriptor: orNull(m.statementDescriptor),
    description: orNull(m.description),
    capture: m.capture,
    isDispute: m.isDispute,
    status: m.status as ChargeStatus,
    paymentMethod: fromPaymentMethodMessage(m.paymentMethod),
    paymentSource: fromSourceMessage(m.paymentSource),
    splitRules: m.splitRules.map(fromSplitRuleMessage),
    platformFee: m.platformFee
      ? {
          amount: m.platformFee.amount,
          ...(m.platformFee.percentage !== undefined ? { percentage: m.platformFee.percentage } : {}),
          ...(m.platformFee.fixedAmount !== undefined ? { fixedAmount: m.platformFee.fixedAmount } : {}),
        }
      : null,
    antifraud: m.antifraud
      ? { providerId: m.antifraud.providerId, status: m.antifraud.status as AntifraudStatus, updatedAt: (m.antifraud.updatedAt ?? new Date(0)).toISOString() }
      : null,
    appInfo: m.appInfo ?? null,
    fraudAnalysis: m.fraudAnalysis ?? null,
    providerId: orNull(m.providerId),
    providerType: orNull(m.providerType),
    providerName: orNull(m.providerName),
    declinedCode: orNull(m.declinedCode),
    transactionRequests: m.transactionRequests.map((r) => fromRequestMessage(r, charge)),
    createdAt: m.createdAt ?? new Date(0),
    updatedAt: m.updatedAt ?? new Date(0),
  };
}

/** The idempotency record keeps the answer as the wire message, so a replay answers what the first call did. */
export const chargeCodec: IdempotencyCodec<Charge> = {
  encode: (charge) => payments.Charge.encode(toChargeMessage(charge)).finish(),
  decode: (bytes) => fromChargeMessage(payments.Charge.decode(bytes)),
};

export const threeDSSetupCodec: IdempotencyCodec<ThreeDSSetup> = {
  encode: (setup) => payments.ThreeDSSetup.encode(setup).finish(),
  decode: (bytes) => payments.ThreeDSSetup.decode(bytes),
};

/** The answers of the charge RPCs, kept as their wire messages. */
export const chargeAnswers: ChargeAnswers = { charge: chargeCodec, threeDSSetup: threeDSSetupCodec };

/**
 * A create request as the domain reads it: every field the rules look at, copied as sent (the rules decide what
 * an empty or zero value means). The client id stays beside it, for the use case.
 */
export function toChargeRequest(m: payments.CreateChargeRequest): ChargeRequest & { clientId: string } {
  const method = m.paymentMethod;
  const source = m.paymentSource;
  return {
    clientId: m.clientId,
    merchantId: m.merchantId,
    amount: m.amount,
    currency: m.currency,
    orderId: m.orderId,
    statementDescriptor: m.statementDescriptor,
    description: m.description,
    capture: m.capture,
    customerId: m.customerId,
    sessionId: m.sessionId,
    paymentMethod: method && {
      paymentType: method.paymentType,
      installments: method.installments,
      recurrence: method.recurrence,
      expiresIn: method.expiresIn,
      expiresDate: method.expiresDate,
      instructions: method.instructions,
      interest: method.interest,
      fine: method.fine,
    },
    paymentSource: source && {
      sourceType: source.sourceType,
      cardId: source.cardId,
      cardCvv: source.cardCvv,
      tokenId: source.tokenId,
      customerId: source.customerId,
      customer: source.customer,
      card: source.card && { ...source.card },
    },
    splitRules: m.splitRules.map((rule) => ({ ...rule })),
    fraudAnalysis: m.fraudAnalysis,
    appInfo: m.appInfo,
  };
}
