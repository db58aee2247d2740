import { z } from '../../openapi/zod';

const RetryStep = z.object({
  daysAfterLastAttempt: z.int('must be a whole number of days').openapi({ example: 3 }),
});

export const UpdateSubscriptionSettingsBody = z
  .object({
    retryPolicy: z.array(RetryStep).max(100, 'must have at most 100 steps').optional().openapi({ description: 'Retries, applied in order' }),
    cancelAfterAllRetries: z.boolean().optional(),
    statementDescriptor: z.string().max(255, 'must be at most 255 characters').optional(),
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

export type SubscriptionSettingsJson = z.infer<typeof SubscriptionSettingsSchema>;
export type UpdateSubscriptionSettingsInput = z.infer<typeof UpdateSubscriptionSettingsBody>;
