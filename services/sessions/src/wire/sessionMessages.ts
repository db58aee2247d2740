import { payments, type sessions } from '@platform/contracts';
import { multiplePaymentsOf, type PaymentType, type Session, type SessionPaymentMethod, type SessionSplitRule } from '../domain/session';

/*
 * The session on the wire: its proto messages to and from the domain types. Used by the gRPC handlers, by the
 * events (the session as the REST API shows it) and by the charge a session asks payments for.
 */

export function toPaymentMethodMessage(method: SessionPaymentMethod): payments.PaymentMethod {
  return payments.PaymentMethod.fromPartial({
    paymentType: method.paymentType,
    installments: method.installments,
    expiresIn: method.expiresIn,
    expiresDate: method.expiresDate,
    instructions: method.instructions,
  });
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

/** A method of the request (proto3 zero values mean "not given"). */
export function fromPaymentMethodMessage(m: payments.PaymentMethod): SessionPaymentMethod {
  return {
    paymentType: m.paymentType as PaymentType,
    ...(m.installments > 0 ? { installments: m.installments } : {}),
    ...(m.expiresIn > 0 ? { expiresIn: m.expiresIn } : {}),
    ...(m.expiresDate ? { expiresDate: m.expiresDate } : {}),
    ...(m.instructions ? { instructions: m.instructions } : {}),
  };
}

export function fromSplitRuleMessage(r: payments.SplitRule): SessionSplitRule {
  return {
    sellerId: r.sellerId,
    ...(r.percentage !== undefined ? { percentage: r.percentage } : {}),
    ...(r.amount !== undefined ? { amount: r.amount } : {}),
    processingFee: r.processingFee,
    chargeRemainderFee: r.chargeRemainderFee,
    liable: r.liable,
  };
}
