import type { payments } from '@platform/contracts';
import { toPageRequest, type PaginationQuery } from '../../http/pagination';
import type {
  CreateMerchantInput,
  PlatformFeeRuleInputJson,
  UpdateMerchantInput,
  UpdateProviderInput,
} from './schemas';

export { toMerchantJson, toPlatformFeeJson, toProviderJson } from '@platform/api-model';

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
