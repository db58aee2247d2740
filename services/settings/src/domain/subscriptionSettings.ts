import { SUBSCRIPTION_SETTINGS_LIMITS as LIMITS } from '@platform/api-model';
import { parseInput } from '@platform/kit';
import { z } from 'zod';

export interface RetryStep {
  daysAfterLastAttempt: number;
}

export interface SubscriptionSettings {
  clientId: string;
  retryPolicy: RetryStep[];
  cancelAfterAllRetries: boolean;
  statementDescriptor: string;
  /** Absent while the client still runs on the defaults. */
  createdAt?: Date;
  updatedAt?: Date;
}

export type SubscriptionSettingsValues = Omit<SubscriptionSettings, 'clientId' | 'createdAt' | 'updatedAt'>;

export const DEFAULT_SUBSCRIPTION_SETTINGS: SubscriptionSettingsValues = {
  retryPolicy: [{ daysAfterLastAttempt: 1 }, { daysAfterLastAttempt: 3 }, { daysAfterLastAttempt: 5 }],
  cancelAfterAllRetries: false,
  statementDescriptor: '',
};

export function defaultSubscriptionSettings(clientId: string): SubscriptionSettings {
  return {
    clientId,
    ...DEFAULT_SUBSCRIPTION_SETTINGS,
    retryPolicy: DEFAULT_SUBSCRIPTION_SETTINGS.retryPolicy.map((step) => ({ ...step })),
  };
}

export const MAX_STATEMENT_DESCRIPTOR_LENGTH = LIMITS.statementDescriptorMaxLength;

const changesSchema = z.object({
  retryPolicy: z
    .array(
      z.object({
        daysAfterLastAttempt: z
          .number()
          .int('must be a whole number of days')
          .min(LIMITS.retryDaysMin, `must be at least ${LIMITS.retryDaysMin} day`)
          .max(LIMITS.retryDaysMax, `must be at most ${LIMITS.retryDaysMax} days`),
      }),
    )
    .min(LIMITS.retryPolicyMinSteps, `must have at least ${LIMITS.retryPolicyMinSteps} step`)
    .max(LIMITS.retryPolicyMaxSteps, `must have at most ${LIMITS.retryPolicyMaxSteps} steps`)
    .optional(),
  cancelAfterAllRetries: z.boolean().optional(),
  // Card networks print a short ASCII descriptor on the statement.
  statementDescriptor: z
    .string()
    .max(MAX_STATEMENT_DESCRIPTOR_LENGTH, `must be at most ${MAX_STATEMENT_DESCRIPTOR_LENGTH} characters`)
    .regex(/^[A-Za-z0-9 .*-]*$/, 'may contain only letters, digits, spaces and . - *')
    .optional(),
});

export type SubscriptionSettingsChanges = Partial<SubscriptionSettingsValues>;

export function parseSubscriptionSettingsChanges(input: {
  retryPolicy?: RetryStep[];
  cancelAfterAllRetries?: boolean;
  statementDescriptor?: string;
}): SubscriptionSettingsChanges {
  const parsed = parseInput(changesSchema, {
    retryPolicy: input.retryPolicy?.map((step) => ({ daysAfterLastAttempt: step.daysAfterLastAttempt })),
    cancelAfterAllRetries: input.cancelAfterAllRetries,
    statementDescriptor: input.statementDescriptor,
  });
  const changes: SubscriptionSettingsChanges = {};
  if (parsed.retryPolicy !== undefined) changes.retryPolicy = parsed.retryPolicy;
  if (parsed.cancelAfterAllRetries !== undefined) changes.cancelAfterAllRetries = parsed.cancelAfterAllRetries;
  if (parsed.statementDescriptor !== undefined) changes.statementDescriptor = parsed.statementDescriptor;
  return changes;
}

export function hasChanges(changes: SubscriptionSettingsChanges): boolean {
  return Object.keys(changes).length > 0;
}

export function applyChanges(current: SubscriptionSettingsValues, changes: SubscriptionSettingsChanges): SubscriptionSettingsValues {
  return {
    retryPolicy: changes.retryPolicy ?? current.retryPolicy,
    cancelAfterAllRetries: changes.cancelAfterAllRetries ?? current.cancelAfterAllRetries,
    statementDescriptor: changes.statementDescriptor ?? current.statementDescriptor,
  };
}
