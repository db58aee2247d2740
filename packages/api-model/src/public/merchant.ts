import type { payments } from '@platform/contracts';
import { JsonObjectSchema, z } from '../zod';
import { numberOrNull, objectOrNull, requiredTimestamp, textOrNull } from './json';

/** A provider as a client may see it: its credentials reduced to their type, whatever else the service sent. */
export const ProviderSchema = z
  .object({
    id: z.string(),
    merchantId: z.string(),
    name: z.string(),
    priority: z.int(),
    credentials: z.object({ type: z.string().openapi({ example: 'SANDBOX' }) }).openapi({ description: 'Only the type: secrets are never returned' }),
    options: JsonObjectSchema.nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Provider');

export type ProviderJson = z.infer<typeof ProviderSchema>;

export const MerchantSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    mcc: z.string(),
    name: z.string().nullable(),
    merchantName: z.string().nullable(),
    merchantUrl: z.string().nullable(),
    status: z.string().openapi({ example: 'active' }),
    providers: z.array(ProviderSchema),
    platformFeeEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Merchant');

export type MerchantJson = z.infer<typeof MerchantSchema>;

export const PlatformFeeSchema = z
  .object({
    merchantId: z.string(),
    platformFeeEnabled: z.boolean(),
    rules: z.array(
      z.object({
        percentage: z.int().nullable(),
        fixedAmount: z.int().nullable(),
        paymentMethod: z.string(),
        installment: z.int().nullable(),
      }),
    ),
  })
  .openapi('PlatformFee');

export type PlatformFeeJson = z.infer<typeof PlatformFeeSchema>;
export type PlatformFeeRuleJson = PlatformFeeJson['rules'][number];

export function toProviderJson(provider: payments.Provider): ProviderJson {
  return {
    id: provider.id,
    merchantId: provider.merchantId,
    name: provider.name,
    priority: provider.priority,
    credentials: { type: provider.credentialsType },
    options: objectOrNull(provider.options),
    createdAt: requiredTimestamp(provider.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(provider.updatedAt, 'updatedAt'),
  };
}

export function toMerchantJson(merchant: payments.Merchant): MerchantJson {
  return {
    id: merchant.id,
    clientId: merchant.clientId,
    mcc: merchant.mcc,
    name: textOrNull(merchant.name),
    merchantName: textOrNull(merchant.merchantName),
    merchantUrl: textOrNull(merchant.merchantUrl),
    status: merchant.status,
    providers: merchant.providers.map(toProviderJson),
    platformFeeEnabled: merchant.platformFeeEnabled,
    createdAt: requiredTimestamp(merchant.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(merchant.updatedAt, 'updatedAt'),
  };
}

export function toPlatformFeeJson(fee: payments.PlatformFee): PlatformFeeJson {
  return {
    merchantId: fee.merchantId,
    platformFeeEnabled: fee.platformFeeEnabled,
    rules: fee.rules.map((rule) => ({
      percentage: numberOrNull(rule.percentage),
      fixedAmount: numberOrNull(rule.fixedAmount),
      paymentMethod: rule.paymentMethod,
      installment: numberOrNull(rule.installment),
    })),
  };
}
