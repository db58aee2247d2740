import { payments } from '@platform/contracts';
import type { IdempotencyCodec } from '@platform/kit';
import type { MerchantAnswers } from '../app/merchants/context';
import { asSent } from './wire';
import { FLOW_PAYMENT_METHODS, type Flow, type FlowPaymentMethod } from '../domain/flow';
import type { Merchant, PlatformFeeRule, Provider } from '../domain/merchant';

export function toProviderMessage(provider: Provider): payments.Provider {
  return {
    id: provider.id,
    merchantId: provider.merchantId,
    name: provider.name,
    priority: provider.priority,
    credentialsType: provider.credentialsType,
    options: provider.options,
    createdAt: provider.createdAt,
    updatedAt: provider.updatedAt,
  };
}

export function toMerchantMessage(merchant: Merchant): payments.Merchant {
  return {
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
  };
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
  return {
    id: flow.id,
    clientId: flow.clientId,
    merchantId: flow.merchantId,
    name: flow.name,
    paymentMethod: flow.paymentMethod,
    rules: flow.rules.map((rule) => ({ when: { ...rule.when }, route: [...rule.route] })),
    defaultRoute: [...flow.defaultRoute],
    createdAt: flow.createdAt,
    updatedAt: flow.updatedAt,
  };
}

/** The merchant, a provider and a flow as a caller of the RPC receives them. */
export function sentMerchant(merchant: Merchant): payments.Merchant {
  return asSent(payments.Merchant, toMerchantMessage(merchant));
}

export function sentProvider(provider: Provider): payments.Provider {
  return asSent(payments.Provider, toProviderMessage(provider));
}

export function sentFlow(flow: Flow): payments.Flow {
  return asSent(payments.Flow, toFlowMessage(flow));
}

function fromProviderMessage(clientId: string, message: payments.Provider): Provider {
  return {
    id: message.id,
    clientId,
    merchantId: message.merchantId,
    name: message.name,
    priority: message.priority,
    credentialsType: message.credentialsType,
    options: message.options ?? {},
    createdAt: message.createdAt ?? new Date(0),
    updatedAt: message.updatedAt ?? new Date(0),
  };
}

/**
 * The idempotency record keeps the answer as the wire message, so a replay answers what the first call did.
 * Only a created merchant is recorded, and a new merchant has no platform fee rules yet.
 */
export const merchantCodec: IdempotencyCodec<Merchant> = {
  encode: (merchant) => payments.Merchant.encode(toMerchantMessage(merchant)).finish(),
  decode: (bytes) => {
    const m = payments.Merchant.decode(bytes);
    return {
      id: m.id,
      clientId: m.clientId,
      mcc: m.mcc,
      name: m.name,
      merchantName: m.merchantName,
      merchantUrl: m.merchantUrl,
      status: m.status,
      platformFeeEnabled: m.platformFeeEnabled,
      platformFeeRules: [],
      providers: m.providers.map((p) => fromProviderMessage(m.clientId, p)),
      createdAt: m.createdAt ?? new Date(0),
      updatedAt: m.updatedAt ?? new Date(0),
    };
  },
};

export const flowCodec: IdempotencyCodec<Flow> = {
  encode: (flow) => payments.Flow.encode(toFlowMessage(flow)).finish(),
  decode: (bytes) => {
    const f = payments.Flow.decode(bytes);
    if (!(FLOW_PAYMENT_METHODS as readonly string[]).includes(f.paymentMethod)) throw new Error(`recorded flow ${f.id} has payment method ${f.paymentMethod}`);
    return {
      id: f.id,
      clientId: f.clientId,
      merchantId: f.merchantId,
      name: f.name,
      paymentMethod: f.paymentMethod as FlowPaymentMethod,
      rules: f.rules.map((rule) => ({
        when: Object.fromEntries(Object.entries(rule.when ?? {}).filter(([, v]) => v !== undefined)),
        route: rule.route,
      })),
      defaultRoute: f.defaultRoute,
      createdAt: f.createdAt ?? new Date(0),
      updatedAt: f.updatedAt ?? new Date(0),
    };
  },
};

/** The answers of the merchant and flow RPCs, kept as their wire messages. */
export const merchantAnswers: MerchantAnswers = { merchant: merchantCodec, flow: flowCodec };
