import type { payments } from '@platform/contracts';
import { z } from '../zod';
import { requiredTimestamp, textOrNull } from './json';

/** A saved card as the API shows it: brand, first six and last four digits; never the number or the CVV. */
export const CardSchema = z
  .object({
    id: z.string(),
    status: z.string().openapi({ example: 'active' }),
    brand: z.string().openapi({ example: 'visa' }),
    cardHolderName: z.string(),
    first6digits: z.string(),
    last4digits: z.string(),
    expirationMonth: z.int(),
    expirationYear: z.int(),
    fingerprint: z.string().openapi({ description: 'The same card number gives the same fingerprint within a client' }),
    cvvChecked: z.boolean(),
    customerId: z.string().nullable(),
    merchantId: z.string().nullable().openapi({ description: 'The merchant whose provider verified the card, if one was named' }),
    clientId: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Card');

export type CardJson = z.infer<typeof CardSchema>;

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
