import { payments } from '@platform/contracts';
import type { Flow } from '../../flows/domain/flow';
import { toFlowRuleMessage } from '../../flows/wire/flowMessages';
import type { Merchant, PlatformFeeRule, Provider } from '../domain/merchant';

/*
 * Merchants, their providers, platform fees and flows on the wire, with unset fields as their zero values (as a caller
 * of the RPC receives them): the gRPC handlers answer these messages and the events show them as the REST API does.
 */

export function toProviderMessage(provider: Provider): payments.Provider {
  return payments.Provider.fromPartial({
    id: provider.id,
    merchantId: provider.merchantId,
    name: provider.name,
    priority: provider.priority,
    credentialsType: provider.credentialsType,
    options: provider.options,
    createdAt: provider.createdAt,
    updatedAt: provider.updatedAt,
  });
}

export function toMerchantMessage(merchant: Merchant): payments.Merchant {
  return payments.Merchant.fromPartial({
    id: merchant.id,
    clientId: merchant.clientId,
    mcc: merchant.mcc,
    name: merchant.name,
    merchantName: merchant.merchantName,
    merchantUrl: merchant.merchantUrl,
    status: merchant.status,
    providers: merchant.providers.map(toProviderMessage),
    platformFeeEnabled: merchant.platformFeeEnabled,
    createdAt: merchant.createdAt,
    updatedAt: merchant.updatedAt,
  });
}

export function toPlatformFeeRuleMessage(rule: PlatformFeeRule): payments.PlatformFeeRule {
  return { paymentMethod: rule.paymentMethod, percentage: rule.percentage, fixedAmount: rule.fixedAmount, installment: rule.installment };
}

export function toPlatformFeeMessage(merchant: Merchant): payments.PlatformFee {
  return {
    merchantId: merchant.id,
    platformFeeEnabled: merchant.platformFeeEnabled,
    rules: merchant.platformFeeRules.map(toPlatformFeeRuleMessage),
  };
}

export function toFlowMessage(flow: Flow): payments.Flow {
  return payments.Flow.fromPartial({
    id: flow.id,
    clientId: flow.clientId,
    merchantId: flow.merchantId,
    name: flow.name,
    paymentMethod: flow.paymentMethod,
    rules: flow.rules.map(toFlowRuleMessage),
    defaultRoute: [...flow.defaultRoute],
    createdAt: flow.createdAt,
    updatedAt: flow.updatedAt,
  });
}
