import type { payments } from '@platform/contracts';
import { CHARGE_STATUSES } from '../enums';
import { JsonObjectSchema, z } from '../zod';
import { numberOrNull, objectOrNull, positiveOrNull, requiredTimestamp, textOrNull, timestampOrNull } from './json';

const nullableText = z.string().nullable();
const nullableInt = z.int().nullable();

/** A split rule as charges and subscriptions answer it: every field present, the ones not given null. */
export const SplitRuleAnswerSchema = z.object({
  sellerId: z.string(),
  percentage: nullableInt,
  amount: nullableInt,
  processingFee: z.boolean(),
  chargeRemainderFee: z.boolean(),
  liable: z.boolean(),
});
const timestamp = z.iso.datetime();

export const TransactionRequestSchema = z
  .object({
    id: z.string(),
    idempotencyKey: nullableText,
    providerId: nullableText,
    providerType: nullableText,
    transactionId: nullableText.openapi({ description: 'The id at the provider' }),
    amount: z.int(),
    authorizationNsu: nullableText,
    requestStatus: z.string().openapi({ example: 'success', description: 'success, declined, failed (technical) or processing (the outcome is unknown: the provider is asked again before the charge moves on)' }),
    requestType: z.string().openapi({ example: 'authorization' }),
    responseTs: nullableText.openapi({ description: 'Provider answer time in milliseconds', example: '182' }),
    providerAuthorization: z.object({ networkAuthorizationCode: nullableText, networkResponseCode: nullableText }).nullable(),
    declinedCode: nullableText.openapi({ example: 'insufficient_funds' }),
    message: nullableText,
    splitRules: z
      .array(z.object({ sellerId: z.string(), amount: nullableInt }))
      .openapi({ description: 'Refunds only: how the refund was taken from the split receivers' }),
    routingReason: nullableText.openapi({
      description: 'Authorizations only: why this provider was tried at this place: flow rule N, flow rule N, split branch B of M (P%), flow default route, or priority',
      example: 'flow rule 1, split branch 1 of 2 (70%)',
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('TransactionRequest');

/** A charge: the answer of /v1/charges and the `data` of the charge events. */
export const ChargeSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    merchantId: z.string(),
    customerId: nullableText,
    sessionId: nullableText,
    amount: z.int(),
    originalAmount: z.int(),
    capturedAmount: z.int(),
    refundedAmount: z.int(),
    currency: z.string().openapi({ example: 'BRL' }),
    orderId: nullableText,
    statementDescriptor: nullableText,
    description: nullableText,
    capture: z.boolean(),
    isDispute: z.boolean(),
    status: z.string().openapi({ example: 'authorized', description: CHARGE_STATUSES.join(', ') }),
    paymentMethod: z
      .object({
        paymentType: z.string(),
        installments: z.int(),
        recurrence: nullableText,
        expiresIn: nullableInt,
        expiresDate: nullableText,
        instructions: nullableText,
        interest: JsonObjectSchema.nullable(),
        fine: JsonObjectSchema.nullable(),
        qrCodeData: nullableText.openapi({ description: 'Pix' }),
        qrCodeImageUrl: nullableText.openapi({ description: 'Pix' }),
        barcodeData: nullableText.openapi({ description: 'Boleto' }),
        barcodeImageUrl: nullableText.openapi({ description: 'Boleto' }),
        digitableLine: nullableText.openapi({ description: 'Boleto' }),
        expiresAt: timestamp.nullable(),
      })
      .nullable(),
    paymentSource: z
      .object({
        sourceType: z.string(),
        cardId: nullableText,
        customerId: nullableText,
        brand: nullableText,
        first6digits: nullableText,
        last4digits: nullableText,
        cardHolderName: nullableText,
        expirationMonth: nullableInt,
        expirationYear: nullableInt,
        cvvChecked: z.boolean().openapi({ description: 'The provider validated the CVV' }),
        customer: JsonObjectSchema.nullable().openapi({ description: 'The inline customer of the request' }),
      })
      .nullable()
      .openapi({ description: 'The card summary: never its number or CVV' }),
    transactionRequests: z.array(TransactionRequestSchema),
    splitRules: z.array(SplitRuleAnswerSchema),
    platformFee: z
      .object({ amount: z.int(), percentage: nullableInt, fixedAmount: nullableInt })
      .nullable()
      .openapi({ description: 'Only with splitRules on a merchant with the platform fee enabled' }),
    antifraud: z.object({ providerId: nullableText, status: z.string(), updatedAt: timestamp.nullable() }).nullable(),
    appInfo: JsonObjectSchema.nullable(),
    fraudAnalysis: JsonObjectSchema.nullable(),
    providerId: nullableText,
    providerType: nullableText,
    providerName: nullableText.openapi({ description: "The merchant's name for the provider responsible for the transaction" }),
    declinedCode: nullableText,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('Charge');

export type TransactionRequestJson = z.infer<typeof TransactionRequestSchema>;
export type ChargeJson = z.infer<typeof ChargeSchema>;
export type ChargePaymentMethodJson = NonNullable<ChargeJson['paymentMethod']>;
/** What a charge shows of its source: never the card number or the CVV. */
export type ChargePaymentSourceJson = NonNullable<ChargeJson['paymentSource']>;
export type SplitRuleJson = ChargeJson['splitRules'][number];

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
    routingReason: textOrNull(request.routingReason),
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
