import type { payments, sessions } from '@platform/contracts';
import { SESSION_STATUSES } from '../enums';
import { JsonObjectSchema, z } from '../zod';
import { numberOrNull, positiveOrNull, requiredTimestamp, textOrNull, timestampOrNull } from './json';

/** Domain event types of the sessions context (data: the session as `toSessionJson` writes it). */
export const SESSION_EVENT_TYPES = {
  created: 'sessions.session.created',
  updated: 'sessions.session.updated',
  paid: 'sessions.session.paid',
  canceled: 'sessions.session.canceled',
  disabled: 'sessions.session.disabled',
} as const;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const nullableText = z.string().nullable();
const nullableInt = z.int().nullable();

/** A session (payment link): the answer of /v1/sessions and the `data` of `sessions.session.*` events. */
export const SessionSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    merchantId: z.string(),
    name: nullableText,
    orderId: nullableText,
    amount: z.int(),
    currency: z.string(),
    capture: z.boolean().nullable(),
    dueDate: nullableText.openapi({ format: 'date-time' }),
    isActive: z.boolean(),
    status: z.string().openapi({ description: oneOf(SESSION_STATUSES) }),
    publicKey: z.string().openapi({ description: "Authenticates this session's charge (X-Api-Key) and nothing else" }),
    paymentLink: z.string().openapi({ description: 'The hosted checkout page' }),
    paymentMethods: z.array(
      z.object({ paymentType: z.string(), installments: nullableInt, expiresIn: nullableInt, expiresDate: nullableText, instructions: nullableText }),
    ),
    items: z.array(z.object({ name: z.string(), unitPrice: z.int(), quantity: z.int(), description: nullableText })),
    splitRules: z.array(
      z.object({ sellerId: z.string(), percentage: nullableInt, amount: nullableInt, processingFee: z.boolean(), chargeRemainderFee: z.boolean(), liable: z.boolean() }),
    ),
    statementDescriptor: nullableText,
    multiplePayments: z.object({ allow: z.boolean(), maxPayments: z.int(), paymentCount: z.int(), pendingCount: z.int(), status: z.string() }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Session');

export type SessionJson = z.infer<typeof SessionSchema>;
export type SessionPaymentMethodJson = SessionJson['paymentMethods'][number];
export type SessionItemJson = SessionJson['items'][number];
export type MultiplePaymentsJson = SessionJson['multiplePayments'];

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
export const SessionHistoryItemSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
    clientId: z.string(),
    merchantId: z.string(),
    action: nullableText,
    actions: z.array(z.string()),
    diff: JsonObjectSchema,
  })
  .openapi('SessionHistoryItem');

export type SessionHistoryItemJson = z.infer<typeof SessionHistoryItemSchema>;

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
