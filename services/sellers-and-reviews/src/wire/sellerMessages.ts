import type { sellers } from '@platform/contracts';
import type { Seller } from '../domain/seller';

export function toSellerMessage(seller: Seller): sellers.Seller {
  return {
    id: seller.id,
    clientId: seller.clientId,
    merchantId: seller.merchantId,
    mcc: seller.mcc,
    status: seller.status,
    owner: seller.owner,
    business: seller.business ?? undefined,
    bankAccount: seller.bankAccount,
    transferPolicy: seller.transferPolicy ?? undefined,
    // Shown in the shape it came: an object in metadata, a list (the public Node SDK's shape) in metadataList.
    metadata: seller.metadata && !Array.isArray(seller.metadata) ? seller.metadata : undefined,
    metadataList: Array.isArray(seller.metadata) ? seller.metadata : undefined,
    rateAgreements: seller.rateAgreements,
    salesPlanId: seller.salesPlanId,
    planId: seller.planId,
    providers: seller.providers.map((p) => ({ ...p })),
    createdAt: seller.createdAt,
    updatedAt: seller.updatedAt,
  };
}
