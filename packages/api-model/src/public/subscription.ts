import type { payments } from '@platform/contracts';
import { AppError } from '@platform/kit';
import { z } from '../zod';
import { SplitRuleAnswerSchema } from './charge';
import { numberOrNull, requiredTimestamp, textOrNull, timestampOrNull } from './json';

/**
 * Subscriptions: a charge per cycle on a saved card of a customer. The public JSON of /v1/subscriptions and the
 * `data` of the `subscriptions.subscription.*` events. Amounts are minor units; timestamps RFC 3339 in UTC.
 */

/** How often a subscription bills. */
export const SUBSCRIPTION_INTERVALS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type SubscriptionInterval = (typeof SUBSCRIPTION_INTERVALS)[number];

/** Statuses of a subscription (product description, "Subscriptions"). */
export const SUBSCRIPTION_STATUSES = ['created', 'trialing', 'active', 'paused', 'unpaid', 'canceled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Statuses of one billing cycle. */
export const SUBSCRIPTION_CYCLE_STATUSES = ['scheduled', 'pending', 'authorized', 'failed', 'retrying', 'canceled'] as const;
export type SubscriptionCycleStatus = (typeof SUBSCRIPTION_CYCLE_STATUSES)[number];

/** How a subscription pays: a saved credit card of its customer. */
export const SUBSCRIPTION_PAYMENT_TYPES = ['credit'] as const;

/**
 * Domain event types of subscriptions. `data` is the subscription after the change, as `toSubscriptionJson` writes
 * it; for `cyclePaid` and `cycleFailed` it is the cycle, as `toSubscriptionCycleJson` writes it.
 */
export const SUBSCRIPTION_EVENT_TYPES = {
  created: 'subscriptions.subscription.created',
  updated: 'subscriptions.subscription.updated',
  trialStarted: 'subscriptions.subscription.trial_started',
  activated: 'subscriptions.subscription.activated',
  paused: 'subscriptions.subscription.paused',
  resumed: 'subscriptions.subscription.resumed',
  canceled: 'subscriptions.subscription.canceled',
  expired: 'subscriptions.subscription.expired',
  unpaid: 'subscriptions.subscription.unpaid',
  cyclePaid: 'subscriptions.subscription.cycle_paid',
  cycleFailed: 'subscriptions.subscription.cycle_failed',
} as const;

/** Subscriptions (POST and PUT /v1/subscriptions): the gateway advertises and checks these, the service checks them again. */
export const SUBSCRIPTION_LIMITS = {
  nameMinLength: 1,
  nameMaxLength: 200,
  itemNameMaxLength: 200,
  minItems: 1,
  maxItems: 100,
  /** Minor units per unit of an item: an item may be free, a cycle may not. */
  itemAmountMin: 0,
  itemAmountMax: 1_000_000_000_000,
  itemQuantityMin: 1,
  itemQuantityMax: 10_000,
  /** What one cycle bills (the items' total), in minor units. */
  amountMin: 1,
  amountMax: 1_000_000_000_000,
  /** How many cycles are billed, when the subscription ends by itself. */
  cyclesMin: 1,
  cyclesMax: 10_000,
  minInstallments: 1,
  maxInstallments: 12,
  maxSplitRules: 100,
} as const;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const timestamp = z.string().openapi({ format: 'date-time' });
const nullableInt = z.int().nullable();

export const SubscriptionSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    merchantId: z.string(),
    customerId: z.string(),
    name: z.string(),
    items: z.array(z.object({ name: z.string(), amount: z.int(), quantity: z.int() }).openapi('SubscriptionItem')),
    amount: z.int().openapi({ description: "The items' total: what each cycle bills" }),
    currency: z.string().openapi({ example: 'BRL' }),
    recurrence: z
      .object({
        interval: z.string().openapi({ description: oneOf(SUBSCRIPTION_INTERVALS) }),
        cycles: nullableInt.openapi({ description: 'null: until canceled' }),
        startAt: timestamp,
      })
      .openapi('SubscriptionRecurrence'),
    paymentMethod: z
      .object({ type: z.string(), card: z.object({ cardId: z.string() }), installments: z.int() })
      .openapi('SubscriptionPaymentMethod'),
    trial: z.object({ endAt: timestamp }).nullable(),
    splitRules: z.array(SplitRuleAnswerSchema),
    status: z.string().openapi({ description: oneOf(SUBSCRIPTION_STATUSES) }),
    cyclesBilled: z.int().openapi({ description: 'The cycles billed so far (paid or given up)' }),
    nextBillingAt: timestamp.nullable().openapi({ description: 'null when no cycle will be billed' }),
    createdAt: timestamp,
    updatedAt: timestamp,
    canceledAt: timestamp.nullable(),
    pausedAt: timestamp.nullable(),
  })
  .openapi('Subscription');

/** A subscription: the answer of /v1/subscriptions and the `data` of `subscriptions.subscription.*` events. */
export type SubscriptionJson = z.infer<typeof SubscriptionSchema>;
export type SubscriptionItemJson = SubscriptionJson['items'][number];

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new AppError('internal', `upstream answer without ${field}`);
  return value;
}

/** A subscription: the answer of /v1/subscriptions and the `data` of `subscriptions.subscription.*` events. */
export function toSubscriptionJson(subscription: payments.Subscription): SubscriptionJson {
  const recurrence = required(subscription.recurrence, 'recurrence');
  const method = required(subscription.paymentMethod, 'paymentMethod');
  return {
    id: subscription.id,
    clientId: subscription.clientId,
    merchantId: subscription.merchantId,
    customerId: subscription.customerId,
    name: subscription.name,
    items: subscription.items.map((item) => ({ name: item.name, amount: item.amount, quantity: item.quantity })),
    amount: subscription.amount,
    currency: subscription.currency,
    recurrence: {
      interval: recurrence.interval,
      cycles: numberOrNull(recurrence.cycles),
      startAt: requiredTimestamp(recurrence.startAt, 'recurrence.startAt'),
    },
    paymentMethod: { type: method.type, card: { cardId: method.cardId }, installments: method.installments },
    trial: subscription.trialEndAt ? { endAt: subscription.trialEndAt.toISOString() } : null,
    splitRules: subscription.splitRules.map((rule) => ({
      sellerId: rule.sellerId,
      percentage: numberOrNull(rule.percentage),
      amount: numberOrNull(rule.amount),
      processingFee: rule.processingFee,
      chargeRemainderFee: rule.chargeRemainderFee,
      liable: rule.liable,
    })),
    status: subscription.status,
    cyclesBilled: subscription.cyclesBilled,
    nextBillingAt: timestampOrNull(subscription.nextBillingAt),
    createdAt: requiredTimestamp(subscription.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(subscription.updatedAt, 'updatedAt'),
    canceledAt: timestampOrNull(subscription.canceledAt),
    pausedAt: timestampOrNull(subscription.pausedAt),
  };
}

/** One billing cycle of a subscription, with its attempts. */
export const SubscriptionCycleSchema = z
  .object({
    id: z.string(),
    subscriptionId: z.string(),
    number: z.int().openapi({ description: 'From 1' }),
    status: z.string().openapi({ description: oneOf(SUBSCRIPTION_CYCLE_STATUSES) }),
    amount: z.int(),
    dueAt: timestamp,
    nextAttemptAt: timestamp.nullable().openapi({ description: 'null when no attempt is left' }),
    attempts: z.array(
      z
        .object({
          attempt: z.int(),
          chargeId: z.string().nullable(),
          status: z.string().openapi({ description: 'authorized or failed' }),
          declinedCode: z.string().nullable(),
          attemptedAt: timestamp,
        })
        .openapi('SubscriptionCycleAttempt'),
    ),
    retryPolicy: z
      .object({
        retryDays: z.array(z.int()).openapi({ description: 'Days after each failed attempt; empty while the cycle has not failed' }),
        cancelAfterAllRetries: z.boolean(),
      })
      .openapi({ description: 'The policy in force when the cycle first failed' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('SubscriptionCycle');

export type SubscriptionCycleJson = z.infer<typeof SubscriptionCycleSchema>;
export type SubscriptionCycleAttemptJson = SubscriptionCycleJson['attempts'][number];

/** One billing cycle of a subscription, with its attempts: the answer of /v1/subscriptions/{id}/cycles. */
export function toSubscriptionCycleJson(cycle: payments.SubscriptionCycle): SubscriptionCycleJson {
  return {
    id: cycle.id,
    subscriptionId: cycle.subscriptionId,
    number: cycle.number,
    status: cycle.status,
    amount: cycle.amount,
    dueAt: requiredTimestamp(cycle.dueAt, 'dueAt'),
    nextAttemptAt: timestampOrNull(cycle.nextAttemptAt),
    attempts: cycle.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      chargeId: textOrNull(attempt.chargeId),
      status: attempt.status,
      declinedCode: textOrNull(attempt.declinedCode),
      attemptedAt: requiredTimestamp(attempt.attemptedAt, 'attempts.attemptedAt'),
    })),
    retryPolicy: { retryDays: [...cycle.retryDays], cancelAfterAllRetries: cycle.cancelAfterAllRetries },
    createdAt: requiredTimestamp(cycle.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(cycle.updatedAt, 'updatedAt'),
  };
}
