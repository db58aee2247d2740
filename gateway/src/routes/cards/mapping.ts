import type { payments } from '@platform/contracts';
import { toPageRequest } from '../../http/pagination';
import type { CreateCardInput, ListCardsInput } from './schemas';

export { toCardJson } from '@platform/api-model';

/** merchantId and cvvCheck, from the top level or from zeroDollar. */
export function toCreateCardRequest(clientId: string, input: CreateCardInput): payments.CreateCardRequest {
  return {
    clientId,
    tokenId: input.tokenId,
    merchantId: input.merchantId ?? input.zeroDollar?.merchantId ?? '',
    cvvCheck: input.cvvCheck ?? input.zeroDollar?.cvvCheck ?? false,
  };
}

export function toListCardsRequest(clientId: string, query: ListCardsInput): payments.ListCardsRequest {
  return { clientId, page: toPageRequest(query), customerId: query.customerId, ids: [] };
}
