import { ADDRESS_FIELDS } from '@platform/api-model';
import type { customers } from '@platform/contracts';
import { toPageRequest } from '../../http/pagination';
import type { CreateCustomerInput, ListCustomersInput, UpdateCustomerInput } from './schemas';

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
