import type { settings } from '@platform/contracts';
import { LINK_SETTINGS_FIELDS, type LinkSettingsField } from '../enums';
import { SUBSCRIPTION_SETTINGS_LIMITS } from '../limits';
import { z } from '../zod';
import { requiredTimestamp, textOrNull, timestampOrNull } from './json';

/** Where the gateway serves a logo; public, so the hosted checkout can show it. */
export function logoUrl(publicUrl: string, logoId: string): string {
  return `${publicUrl}/v1/settings/logos/${encodeURIComponent(logoId)}`;
}

const color = z.string().nullable();

/** Payment-link settings: the answer of /v1/settings and the `data` of `settings.link_settings.*` events. */
export const LinkSettingsSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    merchantId: z.string().nullable().openapi({ description: 'null for the client default' }),
    ...(Object.fromEntries(LINK_SETTINGS_FIELDS.map((f) => [f, color])) as Record<LinkSettingsField, typeof color>),
    logo: z.url().nullable().openapi({ description: 'Public URL of the logo' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('LinkSettings');

export type LinkSettingsJson = z.infer<typeof LinkSettingsSchema>;

/** `publicUrl` is the gateway's public origin, which serves the logo. */
export function toLinkSettingsJson(value: settings.LinkSettings, publicUrl: string): LinkSettingsJson {
  const fields = Object.fromEntries(LINK_SETTINGS_FIELDS.map((f) => [f, textOrNull(value[f])])) as Record<LinkSettingsField, string | null>;
  return {
    id: value.id,
    clientId: value.clientId,
    merchantId: textOrNull(value.merchantId),
    ...fields,
    logo: value.logoId ? logoUrl(publicUrl, value.logoId) : null,
    createdAt: requiredTimestamp(value.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(value.updatedAt, 'updatedAt'),
  };
}

/** One step of a retry policy (its limits hold for the settings a client sends as well). */
export const SubscriptionRetryStepSchema = z.object({
  daysAfterLastAttempt: z
    .int('must be a whole number of days')
    .min(SUBSCRIPTION_SETTINGS_LIMITS.retryDaysMin, `must be at least ${SUBSCRIPTION_SETTINGS_LIMITS.retryDaysMin} day`)
    .max(SUBSCRIPTION_SETTINGS_LIMITS.retryDaysMax, `must be at most ${SUBSCRIPTION_SETTINGS_LIMITS.retryDaysMax} days`)
    .openapi({ example: 3 }),
});

/** Subscription settings: the answer of /v1/subscriptions/settings and the `data` of `settings.subscription_settings.updated`. */
export const SubscriptionSettingsSchema = z
  .object({
    clientId: z.string(),
    retryPolicy: z.array(SubscriptionRetryStepSchema),
    cancelAfterAllRetries: z.boolean(),
    statementDescriptor: z.string().nullable(),
    createdAt: z.iso.datetime().nullable().openapi({ description: 'null while the client runs on the defaults' }),
    updatedAt: z.iso.datetime().nullable(),
  })
  .openapi('SubscriptionSettings');

export type SubscriptionSettingsJson = z.infer<typeof SubscriptionSettingsSchema>;

export function toSubscriptionSettingsJson(value: settings.SubscriptionSettings): SubscriptionSettingsJson {
  return {
    clientId: value.clientId,
    retryPolicy: value.retryPolicy.map((step) => ({ daysAfterLastAttempt: step.daysAfterLastAttempt })),
    cancelAfterAllRetries: value.cancelAfterAllRetries,
    statementDescriptor: textOrNull(value.statementDescriptor),
    createdAt: timestampOrNull(value.createdAt),
    updatedAt: timestampOrNull(value.updatedAt),
  };
}
