import type { sellers } from '@platform/contracts';
import { objectOrNull, requiredTimestamp, textOrNull } from './json';

/** One link of a seller to a provider of its merchant. */
export interface SellerProviderJson {
  providerId: string;
  providerType: string;
  externalId: string | null;
  externalStatus: string | null;
  externalStatusReason: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * A seller: the answer of /v1/sellers and the `data` of `sellers.seller.*` events. `owner`, `business`,
 * `bankAccount` and `transferPolicy` are shown as stored: each nested object (and its address and document) with its
 * own `id`, `createdAt` and `updatedAt`. `mcc` is a string.
 */
export interface SellerJson {
  id: string;
  clientId: string;
  merchantId: string;
  mcc: string;
  status: string;
  owner: Record<string, unknown> | null;
  business: Record<string, unknown> | null;
  bankAccount: Record<string, unknown> | null;
  transferPolicy: Record<string, unknown> | null;
  rateAgreements: Record<string, unknown>[];
  salesPlanId: string | null;
  planId: string | null;
  /** In the shape the client sent it: an object, or a list of objects (the public Node SDK's `[{key, value}]`). */
  metadata: Record<string, unknown> | Record<string, unknown>[] | null;
  providers: SellerProviderJson[];
  createdAt: string;
  updatedAt: string;
}

export function toSellerJson(seller: sellers.Seller): SellerJson {
  return {
    id: seller.id,
    clientId: seller.clientId,
    merchantId: seller.merchantId,
    mcc: seller.mcc,
    status: seller.status,
    owner: objectOrNull(seller.owner),
    business: objectOrNull(seller.business),
    bankAccount: objectOrNull(seller.bankAccount),
    transferPolicy: objectOrNull(seller.transferPolicy),
    rateAgreements: seller.rateAgreements,
    salesPlanId: textOrNull(seller.salesPlanId),
    planId: textOrNull(seller.planId),
    metadata: seller.metadataList ?? objectOrNull(seller.metadata),
    providers: seller.providers.map((p) => ({
      providerId: p.providerId,
      providerType: p.providerType,
      externalId: textOrNull(p.externalId),
      externalStatus: textOrNull(p.externalStatus),
      externalStatusReason: textOrNull(p.externalStatusReason),
      status: p.status,
      createdAt: requiredTimestamp(p.createdAt, 'providers.createdAt'),
      updatedAt: requiredTimestamp(p.updatedAt, 'providers.updatedAt'),
    })),
    createdAt: requiredTimestamp(seller.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(seller.updatedAt, 'updatedAt'),
  };
}
