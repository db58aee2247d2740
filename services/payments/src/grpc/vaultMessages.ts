import { payments } from '@platform/contracts';
import type { IdempotencyCodec } from '@platform/kit';
import type { VaultAnswers } from '../app/vault/context';
import { asSent } from './wire';
import type { CardBrand, IssuedToken, SavedCard } from '../domain/card';

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

/** The card as a caller of the RPC receives it. */
export function sentCard(card: SavedCard): payments.Card {
  return asSent(payments.Card, toCardMessage(card));
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

const tokenCodec: IdempotencyCodec<IssuedToken> = {
  encode: (token) => payments.CardToken.encode({ tokenId: token.id, expiresAt: token.expiresAt }).finish(),
  decode: (bytes) => {
    const message = payments.CardToken.decode(bytes);
    return { id: message.tokenId, expiresAt: message.expiresAt ?? new Date(0) };
  },
};

/** The answers of the vault RPCs, kept as their wire messages. */
export const vaultAnswers: VaultAnswers = { card: cardCodec, token: tokenCodec };
