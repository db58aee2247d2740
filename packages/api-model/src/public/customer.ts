import type { customers } from '@platform/contracts';
import { ADDRESS_FIELDS, type AddressField } from '../enums';
import { z } from '../zod';
import { requiredTimestamp, textOrNull } from './json';

const nullableText = z.string().nullable();

/** Every address field, null when not set. */
const AddressSchema = z.object(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, nullableText])) as Record<AddressField, typeof nullableText>);

/** A customer: the answer of /v1/customers and the `data` of `customers.customer.*` events. */
export const CustomerSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    name: z.string(),
    email: z.string(),
    phoneNumber: nullableText,
    document: z.object({ type: z.string(), number: z.string(), country: z.string() }).nullable(),
    address: AddressSchema.nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Customer');

export type CustomerJson = z.infer<typeof CustomerSchema>;
export type AddressJson = z.infer<typeof AddressSchema>;
export type CustomerDocumentJson = NonNullable<CustomerJson['document']>;

function toAddressJson(address: customers.Address | undefined): AddressJson | null {
  if (!address || ADDRESS_FIELDS.every((f) => !address[f])) return null;
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, textOrNull(address[f])])) as AddressJson;
}

export function toCustomerJson(customer: customers.Customer): CustomerJson {
  return {
    id: customer.id,
    clientId: customer.clientId,
    name: customer.name,
    email: customer.email,
    phoneNumber: textOrNull(customer.phoneNumber),
    document: customer.document ? { type: customer.document.type, number: customer.document.number, country: customer.document.country } : null,
    address: toAddressJson(customer.address),
    createdAt: requiredTimestamp(customer.createdAt, 'createdAt'),
    updatedAt: requiredTimestamp(customer.updatedAt, 'updatedAt'),
  };
}

/** A saved card of a customer (GET /v1/customers/{id}/cards); never more of the number than six and four digits. */
export const CustomerCardSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    brand: z.string().openapi({ example: 'visa' }),
    cardHolderName: z.string(),
    first6digits: z.string(),
    last4digits: z.string(),
    expirationMonth: z.int(),
    expirationYear: z.int(),
    fingerprint: z.string(),
    cvvChecked: z.boolean(),
    createdAt: z.iso.datetime(),
    linkedAt: z.iso.datetime().openapi({ description: 'When the card was linked to the customer' }),
  })
  .openapi('CustomerCard');

export type CustomerCardJson = z.infer<typeof CustomerCardSchema>;

export function toCustomerCardJson(card: customers.CustomerCard): CustomerCardJson {
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
    createdAt: requiredTimestamp(card.createdAt, 'createdAt'),
    linkedAt: requiredTimestamp(card.linkedAt, 'linkedAt'),
  };
}

/** The `data` of `customers.customer.card_added`: the new link, not the customer. */
export const CustomerCardLinkSchema = z.object({ customerId: z.string(), cardId: z.string(), brand: z.string(), last4digits: z.string() });

export type CustomerCardLinkJson = z.infer<typeof CustomerCardLinkSchema>;

export function toCustomerCardLinkJson(customerId: string, card: Pick<customers.CustomerCard, 'id' | 'brand' | 'last4digits'>): CustomerCardLinkJson {
  return { customerId, cardId: card.id, brand: card.brand, last4digits: card.last4digits };
}
