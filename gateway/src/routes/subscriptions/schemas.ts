import { SUBSCRIPTION_SETTINGS_LIMITS as LIMITS } from '@platform/api-model';
import { z } from '../../openapi/zod';

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
