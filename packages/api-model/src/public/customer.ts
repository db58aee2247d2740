import type { customers } from '@platform/contracts';
import { ADDRESS_FIELDS, type AddressField } from '../enums';
import { requiredTimestamp, textOrNull } from './json';

/** Every address field, null when not set. */
export type AddressJson = Record<AddressField, string | null>;

export interface CustomerDocumentJson {
  type: string;
  number: string;
  country: string;
}

/** A customer: the answer of /v1/customers and the `data` of `customers.customer.*` events. */
export interface CustomerJson {
  id: string;
  clientId: string;
  name: string;
  email: string;
  phoneNumber: string | null;
  document: CustomerDocumentJson | null;
  address: AddressJson | null;
  createdAt: string;
  updatedAt: string;
}

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
export interface CustomerCardJson {
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
  createdAt: string;
  linkedAt: string;
}

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
export interface CustomerCardLinkJson {
  customerId: string;
  cardId: string;
  brand: string;
  last4digits: string;
}

export function toCustomerCardLinkJson(customerId: string, card: Pick<customers.CustomerCard, 'id' | 'brand' | 'last4digits'>): CustomerCardLinkJson {
  return { customerId, cardId: card.id, brand: card.brand, last4digits: card.last4digits };
}
