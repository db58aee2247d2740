import type { payments } from '@platform/contracts';
import { numberOrNull, objectOrNull, requiredTimestamp, textOrNull } from './json';

/** A provider as a client may see it: its credentials reduced to their type, whatever else the service sent. */
export interface ProviderJson {
  id: string;
  merchantId: string;
  name: string;
  priority: number;
  credentials: { type: string };
  options: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

export interface MerchantJson {
  id: string;
  clientId: string;
  mcc: string;
  name: string | null;
  merchantName: string | null;
  merchantUrl: string | null;
  status: string;
  providers: ProviderJson[];
  platformFeeEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PlatformFeeRuleJson {
  percentage: number | null;
  fixedAmount: number | null;
  paymentMethod: string;
  installment: number | null;
}

export interface PlatformFeeJson {
  merchantId: string;
  platformFeeEnabled: boolean;
  rules: PlatformFeeRuleJson[];
}

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
