import { payments } from '@platform/contracts';
import type { Charge, ChargePaymentMethod, ChargeSourceView, SplitRule, TransactionRequestRecord } from '../domain/charge';

/*
 * The charge on the wire: the domain charge as its proto message. The gRPC handlers answer it, and the events show
 * it as the REST API does (`toChargeJson` of this message).
 */

const orEmpty = (value: string | null | undefined) => value ?? '';

function toPaymentMethodMessage(m: ChargePaymentMethod): payments.PaymentMethod {
  return payments.PaymentMethod.fromPartial({ ...m, expiresAt: m.expiresAt ? new Date(m.expiresAt) : undefined });
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
    routingReason: r.routingReason ?? undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Unset fields as their zero values, as a caller of the RPC receives them. */
export function toChargeMessage(charge: Charge): payments.Charge {
  return payments.Charge.fromPartial({
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
  });
}
