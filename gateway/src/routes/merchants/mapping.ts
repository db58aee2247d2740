import type { payments } from '@platform/contracts';
import { numberOrNull, objectOrNull, requiredTimestamp, textOrNull } from '../../http/json';
import { toPageRequest, type PaginationQuery } from '../../http/pagination';
import type {
  CreateMerchantInput,
  MerchantJson,
  PlatformFeeJson,
  PlatformFeeRuleInputJson,
  ProviderJson,
  UpdateMerchantInput,
  UpdateProviderInput,
} from './schemas';

/** The provider as a client may see it: its credentials reduced to their type, whatever else the service sent. */
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

export function toCreateMerchantRequest(clientId: string, input: CreateMerchantInput): payments.CreateMerchantRequest {
  return {
    clientId,
    mcc: input.mcc,
    name: input.name ?? '',
    merchantName: input.merchantName ?? '',
    merchantUrl: input.merchantUrl ?? '',
    providers: input.providers.map((p) => ({ name: p.name, priority: p.priority, credentials: p.credentials, options: p.options })),
  };
}

export function toListMerchantsRequest(clientId: string, query: PaginationQuery): payments.ListMerchantsRequest {
  return { clientId, page: toPageRequest(query) };
}

export function toUpdateMerchantRequest(clientId: string, id: string, input: UpdateMerchantInput): payments.UpdateMerchantRequest {
  return { clientId, id, mcc: input.mcc, name: input.name, merchantName: input.merchantName, merchantUrl: input.merchantUrl };
}

export function toUpdateProviderRequest(clientId: string, id: string, input: UpdateProviderInput): payments.UpdateProviderRequest {
  return { clientId, id, name: input.name, priority: input.priority, credentials: input.credentials, options: input.options };
}

export function toPlatformFeeRules(rules: PlatformFeeRuleInputJson[]): payments.PlatformFeeRule[] {
  return rules.map((rule) => ({
    percentage: rule.percentage,
    fixedAmount: rule.fixedAmount,
    paymentMethod: rule.paymentMethod,
    installment: rule.installment,
  }));
}
