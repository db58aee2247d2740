import type { payments } from '@platform/contracts';
import { numberOrNull, objectOrNull, requiredTimestamp, textOrNull, timestampOrNull } from '../../http/json';
import { toPageRequest } from '../../http/pagination';
import { toCardInput } from '../tokens/mapping';
import type { ChargeJson, CreateChargeInput, ListChargesInput, ThreeDSSetupInput, ThreeDSSetupJson, TransactionRequestJson, VoidChargeInput } from './schemas';

/** Zero is proto3's "unset" for these counts; nothing real is zero seconds or month zero. */
function positiveOrNull(value: number): number | null {
  return value > 0 ? value : null;
}

function toTransactionRequestJson(request: payments.TransactionRequest): TransactionRequestJson {
  const authorization = request.providerAuthorization;
  return {
    id: request.id,
    idempotencyKey: textOrNull(request.idempotencyKey),
    providerId: textOrNull(request.providerId),
    providerType: textOrNull(request.providerType),
    transactionId: textOrNull(request.transactionId),
    amount: request.amount,
    authorizationNsu: textOrNull(request.authorizationNsu),
    requestStatus: request.requestStatus,
    requestType: request.requestType,
    responseTs: textOrNull(request.responseTs),
    providerAuthorization: authorization
      ? {
          networkAuthorizationCode: textOrNull(authorization.networkAuthorizationCode),
          networkResponseCode: textOrNull(authorization.networkResponseCode),
        }
      : null,
    declinedCode: textOrNull(request.declinedCode),
    message: textOrNull(request.message),
    splitRules: request.splitRules.map((rule) => ({ sellerId: rule.sellerId, amount: numberOrNull(rule.amount) })),
    createdAt: requiredTimestamp(request.createdAt, 'transactionRequests.createdAt'),
    updatedAt: requiredTimestamp(request.updatedAt, 'transactionRequests.updatedAt'),
  };
}

function toPaymentMethodJson(method: payments.PaymentMethod | undefined): ChargeJson['paymentMethod'] {
  if (!method) return null;
  return {
    paymentType: method.paymentType,
    installments: method.installments,
    recurrence: textOrNull(method.recurrence),
    expiresIn: positiveOrNull(method.expiresIn),
    expiresDate: textOrNull(method.expiresDate),
    instructions: textOrNull(method.instructions),
    interest: objectOrNull(method.interest),
    fine: objectOrNull(method.fine),
    qrCodeData: textOrNull(method.qrCodeData),
    qrCodeImageUrl: textOrNull(method.qrCodeImageUrl),
    barcodeData: textOrNull(method.barcodeData),
    barcodeImageUrl: textOrNull(method.barcodeImageUrl),
    digitableLine: textOrNull(method.digitableLine),
    expiresAt: timestampOrNull(method.expiresAt),
  };
}

/** Field by field from the summary the service keeps: nothing else of the source can reach an answer. */
function toPaymentSourceJson(source: payments.ChargeSource | undefined): ChargeJson['paymentSource'] {
  if (!source) return null;
  return {
    sourceType: source.sourceType,
    cardId: textOrNull(source.cardId),
    customerId: textOrNull(source.customerId),
    brand: textOrNull(source.brand),
    first6digits: textOrNull(source.first6digits),
    last4digits: textOrNull(source.last4digits),
    cardHolderName: textOrNull(source.cardHolderName),
    expirationMonth: positiveOrNull(source.expirationMonth),
    expirationYear: positiveOrNull(source.expirationYear),
    cvvChecked: source.cvvChecked,
    customer: objectOrNull(source.customer),
  };
}

export function toChargeJson(charge: payments.Charge): ChargeJson {
  return {
    id: charge.id,
    clientId: charge.clientId,
    merchantId: charge.merchantId,
    customerId: textOrNull(charge.customerId),
    sessionId: textOrNull(charge.sessionId),
    amount: charge.amount,
    originalAmount: charge.originalAmount,
    capturedAmount: charge.capturedAmount,
    refundedAmount: charge.refundedAmount,
    currency: charge.currency,
    orderId: textOrNull(charge.orderId),
    statementDescriptor: textOrNull(charge.statementDescriptor),
    description: textOrNull(charge.description),
    capture: charge.capture,
    isDispute: charge.isDispute,
    status: charge.status,
    paymentMethod: toPaymentMethodJson(charge.paymentMethod),
    paymentSource: toPaymentSourceJson(charge.paymentSource),
    transactionRequests: charge.transactionRequests.map(toTransactionRequestJson),
    splitRules: charge.splitRules.map((rule) => ({
      sellerId: rule.sellerId,
      percentage: numberOrNull(rule.percentage),
      amount: numberOrNull(rule.amount),
      processingFee: rule.processingFee,
      chargeRemainderFee: rule.chargeRemainderFee,
      liable: rule.liable,
    })),
    platformFee: charge.platformFee
      ? { amount: charge.platformFee.amount, percentage: numberOrNull(charge.platformFee.percentage), fixedAmount: numberOrNull(charge.platformFee.fixedAmount) }
      : null,
    antifraud: charge.antifraud
      ? { providerId: textOrNull(charge.antifraud.providerId), status: charge.antifraud.status, updatedAt: timestampOrNull(charge.antifraud.updatedAt) }
      : null,
    appInfo: objectOrNull(charge.appInfo),
    fraudAnalysis: objectOrNull(charge.fraudAnalysis),
    providerId: textOrNull(charge.providerId),
    providerType: textOrNull(charge.providerType),
    providerName: textOrNull(charge.providerName),
    declinedCode: textOrNull(charge.declinedCode),
    createdAt: requiredTimestamp(charge.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(charge.updatedAt, 'updatedAt'),
  };
}

/** Every field of the message is set, so the proto3 zero values say "not given" and nothing else. */
function toPaymentMethod(method: CreateChargeInput['paymentMethod']): payments.PaymentMethod {
  const base: payments.PaymentMethod = {
    paymentType: method.paymentType,
    installments: 0,
    recurrence: '',
    expiresIn: 0,
    expiresDate: '',
    instructions: '',
    qrCodeData: '',
    qrCodeImageUrl: '',
    barcodeData: '',
    barcodeImageUrl: '',
    digitableLine: '',
  };
  switch (method.paymentType) {
    case 'credit':
      return { ...base, installments: method.installments ?? 1, recurrence: method.recurrence ?? '' };
    case 'debit':
    case 'voucher':
      return { ...base, installments: 1, recurrence: method.recurrence ?? '' };
    case 'pix':
      return { ...base, installments: method.installments ?? 1, expiresIn: method.expiresIn };
    case 'boleto':
      return { ...base, installments: 1, expiresDate: method.expiresDate, instructions: method.instructions ?? '', interest: method.interest, fine: method.fine };
    default: {
      const unmapped: never = method;
      throw new Error(`unmapped payment type ${JSON.stringify(unmapped)}`);
    }
  }
}

function toPaymentSource(source: CreateChargeInput['paymentSource']): payments.PaymentSource {
  const base: payments.PaymentSource = { sourceType: source.sourceType, cardId: '', cardCvv: '', tokenId: '', customerId: '' };
  switch (source.sourceType) {
    case 'card':
      return { ...base, cardId: source.cardId ?? '', cardCvv: source.cardCvv ?? '', card: source.card ? toCardInput(source.card) : undefined };
    case 'token':
      return { ...base, tokenId: source.tokenId };
    case 'customer':
      return { ...base, customerId: source.customerId ?? '', customer: source.customer, cardId: source.cardId ?? '', cardCvv: source.cardCvv ?? '' };
    case 'wallet':
      return { ...base, wallet: source.wallet };
    default: {
      const unmapped: never = source;
      throw new Error(`unmapped source type ${JSON.stringify((unmapped as { sourceType?: unknown }).sourceType)}`);
    }
  }
}

export function toCreateChargeRequest(clientId: string, input: CreateChargeInput): payments.CreateChargeRequest {
  return {
    clientId,
    merchantId: input.merchantId,
    amount: input.amount,
    currency: input.currency,
    orderId: input.orderId ?? '',
    statementDescriptor: input.statementDescriptor ?? '',
    description: input.description ?? '',
    capture: input.capture,
    customerId: input.customerId ?? '',
    paymentMethod: toPaymentMethod(input.paymentMethod),
    paymentSource: toPaymentSource(input.paymentSource),
    splitRules: (input.splitRules ?? []).map((rule) => ({
      sellerId: rule.sellerId,
      percentage: rule.percentage,
      amount: rule.amount,
      processingFee: rule.processingFee ?? false,
      chargeRemainderFee: rule.chargeRemainderFee ?? false,
      liable: rule.liable ?? false,
    })),
    fraudAnalysis: input.fraudAnalysis,
    threeDSecure2: input.threeDSecure2,
    appInfo: input.appInfo,
    paymentFlow: input.paymentFlow,
    // Only a session's own charge route sets it.
    sessionId: '',
  };
}

export function toListChargesRequest(clientId: string, query: ListChargesInput): payments.ListChargesRequest {
  return {
    clientId,
    page: toPageRequest(query),
    merchantId: query.merchantId,
    id: query.id,
    sessionId: query.sessionId,
    status: query.status ?? [],
    paymentType: query.paymentType,
    orderId: query.orderId,
    created: query.created,
    createdGt: query['created.gt'],
    createdLt: query['created.lt'],
    providerType: query.providerType,
  };
}

export function toVoidChargeRequest(clientId: string, id: string, input: VoidChargeInput): payments.VoidChargeRequest {
  return {
    clientId,
    id,
    amount: input.amount,
    splitRules: (input.splitRules ?? []).map((rule) => ({
      sellerId: rule.sellerId,
      amount: rule.amount,
      processingFee: false,
      chargeRemainderFee: false,
      liable: false,
    })),
  };
}

export function toSetupThreeDSRequest(clientId: string, input: ThreeDSSetupInput): payments.SetupThreeDSRequest {
  return {
    clientId,
    sourceType: input.sourceType,
    cardId: input.sourceType === 'card' ? input.cardId : '',
    tokenId: input.sourceType === 'token' ? input.tokenId : '',
  };
}

export function toThreeDSSetupJson(setup: payments.ThreeDSSetup): ThreeDSSetupJson {
  return { id: setup.id, token: setup.token, collectUrl: setup.collectUrl, providerType: setup.providerType };
}
