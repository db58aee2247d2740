import type { payments } from '@platform/contracts';
import { requiredTimestamp, textOrNull } from './json';

/** A saved card as the API shows it: brand, first six and last four digits; never the number or the CVV. */
export interface CardJson {
  id: string;
  status: string;
  brand: string;
  cardHolderName: string;
  first6digits: string;
  last4digits: string;
  expirationMonth: number;
  expirationYear: number;
  fingerprint: string;
  cvvChecked: boolean;
  customerId: string | null;
  merchantId: string | null;
  clientId: string;
  createdAt: string;
  updatedAt: string;
}

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
