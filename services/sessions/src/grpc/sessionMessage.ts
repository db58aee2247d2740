import type { payments, sessions } from '@platform/contracts';
import { multiplePaymentsOf, type Session, type SessionPaymentMethod, type SessionSplitRule } from '../domain/session';

export function toPaymentMethodMessage(method: SessionPaymentMethod): payments.PaymentMethod {
  return {
    paymentType: method.paymentType,
    installments: method.installments ?? 0,
    recurrence: '',
    expiresIn: method.expiresIn ?? 0,
    expiresDate: method.expiresDate ?? '',
    instructions: method.instructions ?? '',
    qrCodeData: '',
    qrCodeImageUrl: '',
    barcodeData: '',
    barcodeImageUrl: '',
    digitableLine: '',
  };
}

export function toSplitRuleMessage(rule: SessionSplitRule): payments.SplitRule {
  return { ...rule };
}

export function toSessionMessage(session: Session, publicKey: string): sessions.Session {
  return {
    id: session.id,
    clientId: session.clientId,
    merchantId: session.merchantId,
    name: session.name,
    orderId: session.orderId,
    amount: session.amount,
    currency: session.currency,
    capture: session.capture ?? undefined,
    dueDate: session.dueDate ?? undefined,
    isActive: session.isActive,
    status: session.status,
    publicKey,
    paymentMethods: session.paymentMethods.map(toPaymentMethodMessage),
    items: session.items.map((item) => ({ ...item })),
    splitRules: session.splitRules.map(toSplitRuleMessage),
    statementDescriptor: session.statementDescriptor,
    multiplePayments: multiplePaymentsOf(session),
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
  };
}
