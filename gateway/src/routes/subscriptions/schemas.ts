import {
  SUBSCRIPTION_CYCLE_STATUSES,
  SUBSCRIPTION_INTERVALS,
  SUBSCRIPTION_LIMITS,
  SUBSCRIPTION_PAYMENT_TYPES,
  SUBSCRIPTION_SETTINGS_LIMITS as LIMITS,
  SUBSCRIPTION_STATUSES,
} from '@platform/api-model';
import { amount, commaJoined, currency, dateTime as instant, int32 } from '../../http/fields';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';
import { SplitRuleInput } from '../charges/schemas';

// ---- Settings --------------------------------------------------------------------------------------------------

const RetryStep = z.object({
  daysAfterLastAttempt: z
    .int('must be a whole number of days')
    .min(LIMITS.retryDaysMin, `must be at least ${LIMITS.retryDaysMin} day`)
    .max(LIMITS.retryDaysMax, `must be at most ${LIMITS.retryDaysMax} days`)
    .openapi({ example: 3 }),
});

export const UpdateSubscriptionSettingsBody = z
  .object({
    retryPolicy: z
      .array(RetryStep)
      .min(LIMITS.retryPolicyMinSteps, `must have at least ${LIMITS.retryPolicyMinSteps} step`)
      .max(LIMITS.retryPolicyMaxSteps, `must have at most ${LIMITS.retryPolicyMaxSteps} steps`)
      .optional()
      .openapi({ description: 'Retries, applied in order' }),
    cancelAfterAllRetries: z.boolean().optional(),
    statementDescriptor: z
      .string()
      .max(LIMITS.statementDescriptorMaxLength, `must be at most ${LIMITS.statementDescriptorMaxLength} characters`)
      .optional()
      .openapi({ description: 'Letters, digits, spaces and . - *' }),
  })
  .openapi('UpdateSubscriptionSettingsRequest');

export const SubscriptionSettingsSchema = z
  .object({
    clientId: z.string(),
    retryPolicy: z.array(RetryStep),
    cancelAfterAllRetries: z.boolean(),
    statementDescriptor: z.string().nullable(),
    createdAt: z.iso.datetime().nullable().openapi({ description: 'null while the client runs on the defaults' }),
    updatedAt: z.iso.datetime().nullable(),
  })
  .openapi('SubscriptionSettings');

export type UpdateSubscriptionSettingsInput = z.infer<typeof UpdateSubscriptionSettingsBody>;

// ---- Subscriptions ---------------------------------------------------------------------------------------------

const L = SUBSCRIPTION_LIMITS;
const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const asObject = { error: requiredOr('must be an object') };
const arrayOf = <T extends z.ZodType>(item: T) => z.array(item, { error: requiredOr('must be an array') });
const id = z.string({ error: requiredOr('must be a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const text = (max: number) =>
  z
    .string({ error: requiredOr('must be a string') })
    .min(L.nameMinLength, 'must not be empty')
    .max(max, `must be at most ${max} characters`);
const name = text(L.nameMaxLength);
const dateTime = instant().openapi({ example: '2026-06-01T12:00:00.000Z' });

export const SubscriptionItemInput = z
  .object(
    {
      name: text(L.itemNameMaxLength),
      amount: amount()
        .min(L.itemAmountMin, `must be at least ${L.itemAmountMin}`)
        .max(L.itemAmountMax, `must be at most ${L.itemAmountMax}`)
        .openapi({ description: 'Minor units, per unit', example: 2990 }),
      quantity: int32()
        .min(L.itemQuantityMin, `must be at least ${L.itemQuantityMin}`)
        .max(L.itemQuantityMax, `must be at most ${L.itemQuantityMax}`),
    },
    asObject,
  )
  .openapi('SubscriptionItemInput');

/** The items of a subscription; their total is what each cycle bills, so it must be an amount a charge can take. */
const items = arrayOf(SubscriptionItemInput)
  .min(L.minItems, `must have at least ${L.minItems} item`)
  .max(L.maxItems, `must list at most ${L.maxItems} items`)
  .superRefine((list, ctx) => {
    // A bad item is named by itself; the total means something only once every item is valid.
    if (!list.every((item) => SubscriptionItemInput.safeParse(item).success)) return;
    const total = list.reduce((sum, item) => sum + item.amount * item.quantity, 0);
    if (total < L.amountMin) ctx.addIssue({ code: 'custom', message: `must add up to at least ${L.amountMin} minor unit` });
    else if (total > L.amountMax) ctx.addIssue({ code: 'custom', message: `must add up to at most ${L.amountMax} minor units` });
  })
  .openapi({ description: `What each cycle bills: the sum of amount × quantity, from ${L.amountMin} to ${L.amountMax} minor units` });

export const SubscriptionRecurrenceInput = z
  .object(
    {
      interval: z.enum(SUBSCRIPTION_INTERVALS, { error: requiredOr(oneOf(SUBSCRIPTION_INTERVALS)) }),
      cycles: int32()
        .min(L.cyclesMin, `must be at least ${L.cyclesMin}`)
        .max(L.cyclesMax, `must be at most ${L.cyclesMax}`)
        .optional()
        .openapi({ description: 'How many cycles are billed; absent: until canceled' }),
      startAt: dateTime.optional().openapi({ description: "The first cycle's due time; absent: now" }),
    },
    asObject,
  )
  .openapi('SubscriptionRecurrenceInput');

export const SubscriptionPaymentMethodInput = z
  .object(
    {
      type: z.enum(SUBSCRIPTION_PAYMENT_TYPES, { error: requiredOr(oneOf(SUBSCRIPTION_PAYMENT_TYPES)) }),
      card: z.object({ cardId: id }, asObject).openapi({ description: "A saved card of the subscription's customer" }),
      installments: int32()
        .min(L.minInstallments, `must be at least ${L.minInstallments}`)
        .max(L.maxInstallments, `must be at most ${L.maxInstallments}`)
        .default(1)
        .openapi({ description: "Installments of each cycle's charge; 1 when absent" }),
    },
    asObject,
  )
  .openapi('SubscriptionPaymentMethodInput');

export const CreateSubscriptionBody = z
  .object({
    name,
    merchantId: id,
    customerId: id,
    items,
    recurrence: SubscriptionRecurrenceInput,
    paymentMethod: SubscriptionPaymentMethodInput,
    trial: z
      .object({ endAt: dateTime.openapi({ description: 'The first cycle is due then' }) }, asObject)
      .optional()
      .openapi({ description: 'Delays the first cycle to endAt (status trialing until then)' }),
    splitRules: arrayOf(SplitRuleInput)
      .max(L.maxSplitRules, `must list at most ${L.maxSplitRules} rules`)
      .optional()
      .openapi({ description: "How each cycle's charge is split, as a charge's splitRules" }),
    currency: currency().default('BRL'),
  })
  .openapi('CreateSubscriptionRequest');

export const ReplaceSubscriptionBody = z
  .object({
    name: name.optional().openapi({ description: 'Kept when absent' }),
    items,
    paymentMethod: SubscriptionPaymentMethodInput,
  })
  .openapi('ReplaceSubscriptionRequest', { description: 'Replaces the items and the card; the next cycles bill the new total' });

export const AdvanceSubscriptionBody = z
  .object({ to: dateTime.openapi({ description: 'Run every cycle and retry due up to this instant, in order' }) })
  .openapi('AdvanceSubscriptionRequest');

export const ListSubscriptionsQuery = paginationQuery.extend({
  status: commaJoined(SUBSCRIPTION_STATUSES).optional(),
  customerId: z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .openapi({ description: 'The subscriptions of one customer' }),
});

export const CyclesQuery = paginationQuery;

export const SubscriptionParams = z.object({ id: z.string().min(1).max(200) });
export const SubscriptionCycleParams = z.object({ id: z.string().min(1).max(200), cycleId: z.string().min(1).max(200) });

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
    splitRules: z.array(
      z.object({
        sellerId: z.string(),
        percentage: nullableInt,
        amount: nullableInt,
        processingFee: z.boolean(),
        chargeRemainderFee: z.boolean(),
        liable: z.boolean(),
      }),
    ),
    status: z.string().openapi({ description: oneOf(SUBSCRIPTION_STATUSES) }),
    cyclesBilled: z.int().openapi({ description: 'The cycles billed so far (paid or given up)' }),
    nextBillingAt: timestamp.nullable().openapi({ description: 'null when no cycle will be billed' }),
    createdAt: timestamp,
    updatedAt: timestamp,
    canceledAt: timestamp.nullable(),
    pausedAt: timestamp.nullable(),
  })
  .openapi('Subscription');

export const SubscriptionListSchema = listSchema(SubscriptionSchema, 'SubscriptionList');

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

export const SubscriptionCycleListSchema = listSchema(SubscriptionCycleSchema, 'SubscriptionCycleList');

export type CreateSubscriptionInput = z.infer<typeof CreateSubscriptionBody>;
export type ReplaceSubscriptionInput = z.infer<typeof ReplaceSubscriptionBody>;
export type ListSubscriptionsInput = z.infer<typeof ListSubscriptionsQuery>;
