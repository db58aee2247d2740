import type { customers } from '@platform/contracts';
import { requiredTimestamp, textOrNull } from '../../http/json';
import { toPageRequest } from '../../http/pagination';
import {
  ADDRESS_FIELDS,
  type CustomerCardJson,
  type CreateCustomerInput, type CustomerJson, type ListCustomersInput, type UpdateCustomerInput } from './schemas';

type AddressJson = NonNullable<CustomerJson['address']>;

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

/** Only the fields of the schema travel: unknown JSON fields were already stripped by zod. */
function toAddress(input: Partial<Record<(typeof ADDRESS_FIELDS)[number], string | null | undefined>> | undefined): customers.Address | undefined {
  if (!input) return undefined;
  const address: customers.Address = {};
  for (const field of ADDRESS_FIELDS) {
    const value = input[field];
    // The service reads an empty string in an update as "clear this field".
    if (value !== undefined) address[field] = value ?? '';
  }
  return address;
}

export function toCreateCustomerRequest(clientId: string, input: CreateCustomerInput, force: boolean): customers.CreateCustomerRequest {
  return {
    clientId,
    name: input.name,
    email: input.email,
    phoneNumber: input.phoneNumber,
    document: { type: input.document.type, number: input.document.number, country: input.document.country ?? '' },
    address: toAddress(input.address),
    force,
  };
}

export function toUpdateCustomerRequest(clientId: string, id: string, input: UpdateCustomerInput): customers.UpdateCustomerRequest {
  return { clientId, id, name: input.name, phoneNumber: input.phoneNumber, address: toAddress(input.address) };
}

export function toListCustomersRequest(clientId: string, query: ListCustomersInput): customers.ListCustomersRequest {
  return {
    clientId,
    page: toPageRequest(query),
    id: query.id,
    documentType: query['document.type'],
    documentNumber: query['document.number'],
    email: query.email,
  };
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
