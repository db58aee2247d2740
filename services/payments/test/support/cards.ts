import type { CardData } from '../../src/modules/vault/domain/card';

export { cardNumberEnding } from '@platform/testkit';

export function cardData(number: string, cvv?: string): CardData {
  return {
    number,
    ...(cvv !== undefined ? { cvv } : {}),
    expirationMonth: 12,
    expirationYear: new Date().getUTCFullYear() + 3,
    holderName: 'Maria Souza',
    brand: 'visa',
    first6: number.slice(0, 6),
    last4: number.slice(-4),
    fingerprint: 'fp',
  };
}
