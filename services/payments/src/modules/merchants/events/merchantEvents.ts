import { toFlowJson, toMerchantJson, toProviderJson } from '@platform/api-model';
import { enqueueEvent, type Queryable } from '@platform/kit';
import type { Flow } from '../../flows/domain/flow';
import type { Merchant, Provider } from '../domain/merchant';
import { toFlowMessage, toMerchantMessage, toProviderMessage } from '../wire/merchantMessages';

export const MERCHANT_EVENTS = {
  merchantCreated: 'payments.merchant.created',
  merchantUpdated: 'payments.merchant.updated',
  merchantDeleted: 'payments.merchant.deleted',
  providerUpdated: 'payments.provider.updated',
  flowCreated: 'payments.flow.created',
  flowUpdated: 'payments.flow.updated',
} as const;

type MerchantEventType = typeof MERCHANT_EVENTS.merchantCreated | typeof MERCHANT_EVENTS.merchantUpdated | typeof MERCHANT_EVENTS.merchantDeleted;

/**
 * Written in the transaction of the change, with the merchant as the REST API shows it (the same mapper): its
 * providers carry the credentials type only, never the secrets.
 */
export async function recordMerchantEvent(tx: Queryable, type: MerchantEventType, merchant: Merchant, occurredAt: Date): Promise<void> {
  await enqueueEvent(tx, { type, clientId: merchant.clientId, data: toMerchantJson(toMerchantMessage(merchant)), occurredAt });
}

export async function recordProviderUpdated(tx: Queryable, provider: Provider, occurredAt: Date): Promise<void> {
  const data = toProviderJson(toProviderMessage(provider));
  await enqueueEvent(tx, { type: MERCHANT_EVENTS.providerUpdated, clientId: provider.clientId, data, occurredAt });
}

export async function recordFlowEvent(
  tx: Queryable,
  type: typeof MERCHANT_EVENTS.flowCreated | typeof MERCHANT_EVENTS.flowUpdated,
  flow: Flow,
  occurredAt: Date,
): Promise<void> {
  await enqueueEvent(tx, { type, clientId: flow.clientId, data: toFlowJson(toFlowMessage(flow)), occurredAt });
}
