import type { payments } from '@platform/contracts';
import { requiredTimestamp, textOrNull } from '../../http/json';
import { toPageRequest } from '../../http/pagination';
import type { CardJson, CreateCardInput, ListCardsInput } from './schemas';

export function toCardJson(card: payments.Card): CardJson {
  return {
    id: card.id,
    status: card.status,
    brand: card.brand,
    cardHolderName: card.cardHolderName,
    first6digits: card.first6digits,
    last4digits: card.last4digits,
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
    fingerprint: card.fingerprint,
    cvvChecked: card.cvvChecked,
    customerId: textOrNull(card.customerId),
    merchantId: textOrNull(card.merchantId),
    clientId: card.clientId,
    createdAt: requiredTimestamp(card.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(card.updatedAt, 'updatedAt'),
  };
}

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
