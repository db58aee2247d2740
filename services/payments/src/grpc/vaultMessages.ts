import { payments } from '@platform/contracts';
import type { IdempotencyCodec } from '@platform/kit';
import type { CardBrand, SavedCard } from '../domain/card';

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

export function toCardTokenMessage(token: { id: string; expiresAt: Date }): payments.CardToken {
  return { tokenId: token.id, expiresAt: token.expiresAt };
}

/** The idempotency record keeps the answer as the wire message, so a replay answers what the first call did. */
export const cardCodec: IdempotencyCodec<SavedCard> = {
  encode: (card) => payments.Card.encode(toCardMessage(card)).finish(),
  decode: (bytes) => {
    const m = payments.Card.decode(bytes);
    return {
      id: m.id,
      clientId: m.clientId,
      customerId: m.customerId || null,
      merchantId: m.merchantId || null,
      status: m.status,
      brand: m.brand as CardBrand,
      holderName: m.cardHolderName,
      first6: m.first6digits,
      last4: m.last4digits,
      expirationMonth: m.expirationMonth,
      expirationYear: m.expirationYear,
      fingerprint: m.fingerprint,
      cvvChecked: m.cvvChecked,
      createdAt: m.createdAt ?? new Date(0),
      updatedAt: m.updatedAt ?? new Date(0),
    };
  },
};
