import type { payments } from '@platform/contracts';
import type { IssuedToken, SavedCard } from '../domain/card';

/** A saved card on the wire: brand, first six and last four digits; the number and CVV have no field here. */
export function toCardMessage(card: SavedCard): payments.Card {
  return {
    id: card.id,
    clientId: card.clientId,
    customerId: card.customerId ?? '',
    merchantId: card.merchantId ?? '',
    status: card.status,
    brand: card.brand,
    cardHolderName: card.holderName,
    first6digits: card.first6,
    last4digits: card.last4,
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
    fingerprint: card.fingerprint,
    cvvChecked: card.cvvChecked,
    createdAt: card.createdAt,
    updatedAt: card.updatedAt,
  };
}

export function toCardTokenMessage(token: IssuedToken): payments.CardToken {
  return { tokenId: token.id, expiresAt: token.expiresAt };
}
