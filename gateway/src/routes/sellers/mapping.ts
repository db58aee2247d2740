import type { sellers } from '@platform/contracts';
import { toPageRequest } from '../../http/pagination';
import type { CreateSellerInput, ListSellersInput } from './schemas';

/** The body travels as it came (the service validates it whole); only undefined keys are dropped. */
function asObject(input: CreateSellerInput): { [key: string]: unknown } {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

export function toCreateSellerRequest(clientId: string, input: CreateSellerInput): sellers.CreateSellerRequest {
  return { clientId, seller: asObject(input) };
}

export function toUpdateSellerRequest(clientId: string, id: string, input: CreateSellerInput): sellers.UpdateSellerRequest {
  return { clientId, id, changes: asObject(input) };
}

export function toListSellersRequest(clientId: string, query: ListSellersInput): sellers.ListSellersRequest {
  return {
    clientId,
    page: toPageRequest(query),
    id: query.id,
    email: query.email,
    statuses: query.status,
    businessName: query.businessName,
    merchantId: query.merchantId,
  };
}
