import {
  SUBSCRIPTION_INTERVALS,
  SUBSCRIPTION_LIMITS,
  SUBSCRIPTION_PAYMENT_TYPES,
  SUBSCRIPTION_SETTINGS_LIMITS as LIMITS,
  SUBSCRIPTION_STATUSES,
  SubscriptionCycleSchema,
  SubscriptionRetryStepSchema,
  SubscriptionSchema,
  SubscriptionSettingsSchema,
} from '@platform/api-model';
import { amount, commaJoined, currency, dateTime as instant, int32 } from '../../http/fields';
import { listSchema, paginationQuery } from '../../http/pagination';
import { requiredOr } from '../../http/validation';
import { z } from '../../openapi/zod';
import { SplitRuleInput } from '../charges/schemas';

// ---- Settings --------------------------------------------------------------------------------------------------

export const UpdateSubscriptionSettingsBody = z
  .object({
    retryPolicy: z
      .array(SubscriptionRetryStepSchema)
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

/** The answers here are the API model's schemas. */
export { SubscriptionCycleSchema, SubscriptionSchema, SubscriptionSettingsSchema };

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

export const SubscriptionListSchema = listSchema(SubscriptionSchema, 'SubscriptionList');

export const SubscriptionCycleListSchema = listSchema(SubscriptionCycleSchema, 'SubscriptionCycleList');

export type CreateSubscriptionInput = z.infer<typeof CreateSubscriptionBody>;
export type ReplaceSubscriptionInput = z.infer<typeof ReplaceSubscriptionBody>;
export type ListSubscriptionsInput = z.infer<typeof ListSubscriptionsQuery>;
