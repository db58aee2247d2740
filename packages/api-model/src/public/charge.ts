import type { payments } from '@platform/contracts';
import { numberOrNull, objectOrNull, positiveOrNull, requiredTimestamp, textOrNull, timestampOrNull } from './json';

export interface TransactionRequestJson {
  id: string;
  idempotencyKey: string | null;
  providerId: string | null;
  providerType: string | null;
  transactionId: string | null;
  amount: number;
  authorizationNsu: string | null;
  requestStatus: string;
  requestType: string;
  responseTs: string | null;
  providerAuthorization: { networkAuthorizationCode: string | null; networkResponseCode: string | null } | null;
  declinedCode: string | null;
  message: string | null;
  splitRules: Array<{ sellerId: string; amount: number | null }>;
  createdAt: string;
  updatedAt: string;
}

export interface ChargePaymentMethodJson {
  paymentType: string;
  installments: number;
  recurrence: string | null;
  expiresIn: number | null;
  expiresDate: string | null;
  instructions: string | null;
  interest: Record<string, unknown> | null;
  fine: Record<string, unknown> | null;
  qrCodeData: string | null;
  qrCodeImageUrl: string | null;
  barcodeData: string | null;
  barcodeImageUrl: string | null;
  digitableLine: string | null;
  expiresAt: string | null;
}

/** What a charge shows of its source: never the card number or the CVV. */
export interface ChargePaymentSourceJson {
  sourceType: string;
  cardId: string | null;
  customerId: string | null;
  brand: string | null;
  first6digits: string | null;
  last4digits: string | null;
  cardHolderName: string | null;
  expirationMonth: number | null;
  expirationYear: number | null;
  cvvChecked: boolean;
  customer: Record<string, unknown> | null;
}

export interface SplitRuleJson {
  sellerId: string;
  percentage: number | null;
  amount: number | null;
  processingFee: boolean;
  chargeRemainderFee: boolean;
  liable: boolean;
}

export interface ChargeJson {
  id: string;
  clientId: string;
  merchantId: string;
  customerId: string | null;
  sessionId: string | null;
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
  status: string;
  paymentMethod: ChargePaymentMethodJson | null;
  paymentSource: ChargePaymentSourceJson | null;
  transactionRequests: TransactionRequestJson[];
  splitRules: SplitRuleJson[];
  platformFee: { amount: number; percentage: number | null; fixedAmount: number | null } | null;
  antifraud: { providerId: string | null; status: string; updatedAt: string | null } | null;
  appInfo: Record<string, unknown> | null;
  fraudAnalysis: Record<string, unknown> | null;
  providerId: string | null;
  providerType: string | null;
  providerName: string | null;
  declinedCode: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toTransactionRequestJson(request: payments.TransactionRequest): TransactionRequestJson {
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

function toPaymentMethodJson(method: payments.PaymentMethod | undefined): ChargePaymentMethodJson | null {
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
function toPaymentSourceJson(source: payments.ChargeSource | undefined): ChargePaymentSourceJson | null {
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

/** The charge as the REST answer and the webhook `data` show it. */
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
