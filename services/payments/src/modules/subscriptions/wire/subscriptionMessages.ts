import { payments } from '@platform/contracts';
import type { CycleRecord, SubscriptionRecord } from '../domain/subscription';

export function toSubscriptionMessage(s: SubscriptionRecord): payments.Subscription {
  return payments.Subscription.fromPartial({
    id: s.id,
    clientId: s.clientId,
    merchantId: s.merchantId,
    customerId: s.customerId,
    name: s.name,
    items: s.items.map((i) => ({ ...i })),
    amount: s.amount,
    currency: s.currency,
    recurrence: { interval: s.interval, ...(s.cycles !== null ? { cycles: s.cycles } : {}), startAt: s.startAt },
    paymentMethod: { type: 'credit', cardId: s.cardId, installments: s.installments },
    ...(s.trialEndAt ? { trialEndAt: s.trialEndAt } : {}),
    splitRules: s.splitRules.map((r) => ({ ...r })),
    status: s.status,
    cyclesBilled: s.cyclesBilled,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.canceledAt ? { canceledAt: s.canceledAt } : {}),
    ...(s.pausedAt ? { pausedAt: s.pausedAt } : {}),
  });
}

/** With the time of the next cycle, which the subscription's open cycle holds. */
export function withNextBilling(message: payments.Subscription, next: Date | null): payments.Subscription {
  return next ? { ...message, nextBillingAt: next } : message;
}

export function toCycleMessage(c: CycleRecord): payments.SubscriptionCycle {
  return payments.SubscriptionCycle.fromPartial({
    id: c.id,
    clientId: c.clientId,
    subscriptionId: c.subscriptionId,
    number: c.number,
    status: c.status,
    amount: c.amount,
    dueAt: c.dueAt,
    ...(c.nextAttemptAt ? { nextAttemptAt: c.nextAttemptAt } : {}),
    attempts: c.attempts.map((a) => ({
      attempt: a.attempt,
      chargeId: a.chargeId ?? '',
      status: a.status,
      declinedCode: a.declinedCode ?? '',
      attemptedAt: a.attemptedAt,
    })),
    retryDays: c.retryDays ?? [],
    cancelAfterAllRetries: c.cancelAfterAllRetries ?? false,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  });
}
