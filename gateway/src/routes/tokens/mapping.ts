import type { payments } from '@platform/contracts';
import { timestampOrNull } from '../../http/json';
import type { CardInputJson, CardTokenJson } from './schemas';

export function toCardInput(card: CardInputJson): payments.CardInput {
  return {
    cardHolderName: card.cardHolderName,
    cardNumber: card.cardNumber,
    cardCvv: card.cardCvv,
    cardExpirationDate: card.cardExpirationDate,
  };
}

export function toCardTokenJson(token: payments.CardToken): CardTokenJson {
  return { tokenId: token.tokenId, expiresAt: timestampOrNull(token.expiresAt) };
}
