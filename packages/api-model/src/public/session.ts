import type { payments, sessions } from '@platform/contracts';
import type { SplitRuleJson } from './charge';
import { numberOrNull, positiveOrNull, requiredTimestamp, textOrNull, timestampOrNull } from './json';

/** Domain event types of the sessions context (data: the session as `toSessionJson` writes it). */
export const SESSION_EVENT_TYPES = {
  created: 'sessions.session.created',
  updated: 'sessions.session.updated',
  paid: 'sessions.session.paid',
  canceled: 'sessions.session.canceled',
  disabled: 'sessions.session.disabled',
} as const;

export interface SessionPaymentMethodJson {
  paymentType: string;
  installments: number | null;
  expiresIn: number | null;
  expiresDate: string | null;
  instructions: string | null;
}

export interface SessionItemJson {
  name: string;
  unitPrice: number;
  quantity: number;
  description: string | null;
}

export interface MultiplePaymentsJson {
  allow: boolean;
  maxPayments: number;
  paymentCount: number;
  pendingCount: number;
  status: string;
}

/** A session (payment link): the answer of /v1/sessions and the `data` of `sessions.session.*` events. */
export interface SessionJson {
  id: string;
  clientId: string;
  merchantId: string;
  name: string | null;
  orderId: string | null;
  amount: number;
  currency: string;
  capture: boolean | null;
  dueDate: string | null;
  isActive: boolean;
  status: string;
  publicKey: string;
  paymentLink: string;
  paymentMethods: SessionPaymentMethodJson[];
  items: SessionItemJson[];
  splitRules: SplitRuleJson[];
  statementDescriptor: string | null;
  multiplePayments: MultiplePaymentsJson;
  createdAt: string;
  updatedAt: string;
}

export function toSessionPaymentMethodJson(method: payments.PaymentMethod): SessionPaymentMethodJson {
  return {
    paymentType: method.paymentType,
    installments: positiveOrNull(method.installments),
    expiresIn: positiveOrNull(method.expiresIn),
    expiresDate: textOrNull(method.expiresDate),
    instructions: textOrNull(method.instructions),
  };
}

/** The hosted checkout page of a session. */
export function sessionPaymentLink(publicUrl: string, sessionId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/checkout/${sessionId}`;
}

export function toSessionJson(session: sessions.Session, publicUrl: string): SessionJson {
  const multiple = session.multiplePayments;
  return {
    id: session.id,
    clientId: session.clientId,
    merchantId: session.merchantId,
    name: textOrNull(session.name),
    orderId: textOrNull(session.orderId),
    amount: session.amount,
    currency: session.currency,
    capture: session.capture ?? null,
    dueDate: timestampOrNull(session.dueDate),
    isActive: session.isActive,
    status: session.status,
    publicKey: session.publicKey,
    paymentLink: sessionPaymentLink(publicUrl, session.id),
    paymentMethods: session.paymentMethods.map(toSessionPaymentMethodJson),
    items: session.items.map((item) => ({ name: item.name, unitPrice: item.unitPrice, quantity: item.quantity, description: textOrNull(item.description) })),
    splitRules: session.splitRules.map((rule) => ({
      sellerId: rule.sellerId,
      percentage: numberOrNull(rule.percentage),
      amount: numberOrNull(rule.amount),
      processingFee: rule.processingFee,
      chargeRemainderFee: rule.chargeRemainderFee,
      liable: rule.liable,
    })),
    statementDescriptor: textOrNull(session.statementDescriptor),
    multiplePayments: {
      allow: multiple?.allow ?? false,
      maxPayments: multiple?.maxPayments ?? 1,
      paymentCount: multiple?.paymentCount ?? 0,
      pendingCount: multiple?.pendingCount ?? 0,
      status: multiple?.status ?? 'disabled',
    },
    createdAt: requiredTimestamp(session.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(session.updatedAt, 'updatedAt'),
  };
}

/** A session history item, newest first in `GET /v1/sessions/{id}/history`. */
export interface SessionHistoryItemJson {
  id: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  clientId: string;
  merchantId: string;
  action: string | null;
  actions: string[];
  diff: Record<string, unknown>;
}

export function toSessionHistoryItemJson(item: sessions.SessionHistoryItem): SessionHistoryItemJson {
  return {
    id: item.id,
    status: item.status,
    createdAt: requiredTimestamp(item.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(item.updatedAt, 'updatedAt'),
    clientId: item.clientId,
    merchantId: item.merchantId,
    action: item.action ?? null,
    actions: item.actions,
    diff: item.diff ?? {},
  };
}
