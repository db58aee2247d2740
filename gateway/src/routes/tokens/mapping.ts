import type { payments } from '@platform/contracts';
import type { CardInputJson } from './schemas';

export { toCardTokenJson } from '@platform/api-model';

export function toCardInput(card: CardInputJson): payments.CardInput {
  return {
    cardHolderName: card.cardHolderName,
    cardNumber: card.cardNumber,
    cardCvv: card.cardCvv,
    cardExpirationDate: card.cardExpirationDate,
  };
}

