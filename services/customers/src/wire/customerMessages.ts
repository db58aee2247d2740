import { customers } from '@platform/contracts';
import type { IdempotencyCodec } from '@platform/kit';
import { DOCUMENT_TYPES, type Customer, type DocumentType } from '../domain/customer';

export function toCustomerMessage(customer: Customer): customers.Customer {
  return {
    id: customer.id,
    clientId: customer.clientId,
    name: customer.name,
    email: customer.email,
    phoneNumber: customer.phoneNumber,
    document: { ...customer.document },
    address: customer.address ? { ...customer.address } : undefined,
    createdAt: customer.createdAt,
    updatedAt: customer.updatedAt,
  };
}

function fromCustomerMessage(message: customers.Customer): Customer {
  const type = message.document?.type ?? '';
  if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) throw new Error(`stored customer ${message.id} has document type ${type}`);
  const address = message.address ? Object.fromEntries(Object.entries(message.address).filter(([, v]) => v !== undefined)) : undefined;
  return {
    id: message.id,
    clientId: message.clientId,
    name: message.name,
    email: message.email,
    phoneNumber: message.phoneNumber,
    document: { type: type as DocumentType, number: message.document?.number ?? '', country: message.document?.country ?? '' },
    address: address && Object.keys(address).length > 0 ? address : null,
    createdAt: message.createdAt ?? new Date(0),
    updatedAt: message.updatedAt ?? new Date(0),
    deletedAt: null,
  };
}

/** The idempotency record keeps the answer as the wire message, so a replay answers what the first call did. */
export const customerCodec: IdempotencyCodec<Customer> = {
  encode: (customer) => customers.Customer.encode(toCustomerMessage(customer)).finish(),
  decode: (bytes) => fromCustomerMessage(customers.Customer.decode(bytes)),
};
